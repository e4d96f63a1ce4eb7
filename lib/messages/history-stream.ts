import type { HistoryRecord } from "./history-schemas";

/**
 * Writes `{"message":…,"data":[…],"pagination":null}` batch by batch, so an unpaginated history
 * (every record of up to 90 days) never sits in memory whole. `next` returns the batch after the
 * last one it was given, or an empty array at the end. The first batch is fetched by the caller
 * before the response starts, so a failing database still answers with a proper error status.
 */
export function streamHistory(
  message: string,
  first: HistoryRecord[],
  batchSize: number,
  next: (lastId: number) => Promise<HistoryRecord[]>,
): ReadableStream<Uint8Array> {
  const enc = new TextEncoder();
  let batch: HistoryRecord[] | null = first;
  let wroteAny = false;
  let started = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(enc.encode(`{"message":${JSON.stringify(message)},"data":[`));
      }
      if (batch === null || batch.length === 0) {
        controller.enqueue(enc.encode(`],"pagination":null}`));
        controller.close();
        return;
      }
      const current: HistoryRecord[] = batch;
      const text = current.map((r) => JSON.stringify(r)).join(",");
      controller.enqueue(enc.encode((wroteAny ? "," : "") + text));
      wroteAny = true;
      // A short batch is the last one: no extra round trip just to learn the end.
      batch = current.length < batchSize ? null : await next(current[current.length - 1].id);
    },
  });
}
