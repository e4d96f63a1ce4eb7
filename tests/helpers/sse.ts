import { expect } from "vitest";
import { apiClient } from "./client";
import { createContact, createLabel } from "./factories";
import { waitFor } from "./wait";

/** A Server-Sent Events client for tests: parses frames as EventSource does and queues them. */
export type SseEvent = { id?: string; event: string; data: string };

export type SseStream = {
  status: number;
  headers: Headers;
  /** Every frame and comment seen so far, in order (comments as event ":comment"). */
  seen: SseEvent[];
  /** The next event (not comment) matching `pred`, waiting up to `timeoutMs`. */
  next: (pred?: (e: SseEvent) => boolean, timeoutMs?: number) => Promise<SseEvent>;
  close: () => void;
  /** Settles when the server ended the stream (or close() aborted it). */
  ended: Promise<void>;
};

/** Resolves once the stream is open: its first comment arrived (the server subscribes before writing it). */
export async function streamOpened(s: SseStream): Promise<void> {
  await waitFor(() => s.seen.some((e) => e.event === ":comment"), Boolean);
}

/**
 * Milliseconds from now until the server ended the stream; fails unless it ended within `limitMs`
 * (waiting 2 s past it, so a late end is reported as late, not as never).
 */
export async function endsWithin(s: SseStream, limitMs: number): Promise<number> {
  const t0 = Date.now();
  const timeout = new Promise<"open">((r) => setTimeout(() => r("open"), limitMs + 2000).unref());
  expect(await Promise.race([s.ended.then(() => "ended" as const), timeout])).toBe("ended");
  const took = Date.now() - t0;
  expect(took).toBeLessThanOrEqual(limitMs);
  return took;
}

export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  const abort = new AbortController();
  const res = await fetch(url, { headers: { accept: "text/event-stream", ...headers }, signal: abort.signal });
  const seen: SseEvent[] = [];
  let consumed = 0;
  const waiters = new Set<() => void>();
  const wake = () => waiters.forEach((w) => w());

  let ended: Promise<void> = Promise.resolve();
  if (res.ok && res.body) {
    ended = (async () => {
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
          buffer += decoder.decode(chunk, { stream: true });
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const block = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const frame: SseEvent = { event: "message", data: "" };
            const data: string[] = [];
            for (const line of block.split("\n")) {
              if (line.startsWith(":")) seen.push({ event: ":comment", data: line.slice(1).trim() });
              else if (line.startsWith("id: ")) frame.id = line.slice(4);
              else if (line.startsWith("event: ")) frame.event = line.slice(7);
              else if (line.startsWith("data: ")) data.push(line.slice(6));
            }
            if (data.length) {
              frame.data = data.join("\n");
              seen.push(frame);
            }
          }
          wake();
        }
      } catch {
        // aborted by close()
      }
    })();
  }

  const next = (pred: (e: SseEvent) => boolean = () => true, timeoutMs = 5000) =>
    new Promise<SseEvent>((resolve, reject) => {
      const check = () => {
        for (let i = consumed; i < seen.length; i++) {
          const e = seen[i];
          if (e.event !== ":comment" && pred(e)) {
            consumed = i + 1;
            waiters.delete(check);
            clearTimeout(timer);
            resolve(e);
            return;
          }
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`no matching event within ${timeoutMs} ms; seen: ${JSON.stringify(seen.slice(-5))}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });

  return { status: res.status, headers: res.headers, seen, next, close: () => abort.abort(), ended };
}

/**
 * For checks that an event did NOT reach a stream: a team's events reach its streams in the log's
 * order, so once an event written after the action has arrived, anything the action wrote for the
 * stream would have arrived before it. This writes that marker (a new label put on `contactId`, or
 * on a new contact of the team, through the API as any change is) and returns what the stream saw
 * before it, comments included. `contactId` is for a stream narrowed to one contact.
 */
export async function seenBeforeMarker(
  s: SseStream,
  serverUrl: string,
  team: { id: number; token: string },
  contactId?: number,
): Promise<SseEvent[]> {
  await streamOpened(s);
  const label = await createLabel(team.id);
  const contact = contactId ?? (await createContact(team.id)).id;
  const res = await apiClient(serverUrl, team.token).post(`/api/v1/contacts/${contact}/labels`, { label_ids: [label.id] });
  if (res.status !== 200) throw new Error(`marker label not added: ${res.status} ${JSON.stringify(res.body)}`);
  const marker = await s.next((e) => {
    if (e.event !== "contact.labels") return false;
    const data = JSON.parse(e.data) as { contact_id?: number; labels?: { id: number }[] };
    return data.contact_id === contact && !!data.labels?.some((l) => l.id === label.id);
  }, 10_000);
  return s.seen.slice(0, s.seen.indexOf(marker));
}
