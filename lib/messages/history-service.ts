import { withReadDb, type Db } from "@/db/client";
import { pgErrorCode } from "@/db/errors";
import type { AuthContext } from "@/lib/auth/context";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { offsetOf, paginationMeta, type Pagination } from "@/lib/http/pagination";
import { WA_NUMBER_NOT_REGISTERED } from "@/lib/numbers/service";
import { sanitizeNumber } from "@/lib/phone";
import { HistoryIdRanges, STALE_RANGE, type IdRange } from "./history-bounds";
import { findConversation, HISTORY_BATCH, historyBatch, historyPage, partitionBounds, type Conversation } from "./history-repo";
import { resolveWindow } from "./history-range";
import type { HistoryQuery, HistoryRecord } from "./history-schemas";
import { streamHistory } from "./history-stream";
import { toHistoryRecordWith } from "./record";

export const HISTORY_OK = "Historial de mensajes obtenido correctamente.";
export const CHANNELS = ["whatsapp"] as const;

/** `{channel}` of the path (ruling 6): anything but a known channel is a missing resource. */
export function requireChannel(channel: string): void {
  if (!(CHANNELS as readonly string[]).includes(channel)) throw ApiError.notFound("Canal no encontrado.");
}

// The process's partition bounds, for every history read (lib/messages/history-bounds.ts).
const idRanges = new HistoryIdRanges((err) => pgErrorCode(err) === STALE_RANGE);

export type HistoryResult =
  { message: string; data: HistoryRecord[]; pagination: Pagination | null } | { message: string; stream: ReadableStream<Uint8Array> };

/**
 * Messages between a company number and one customer in a date window (spec 4.5). Paginated
 * answers are one page plus a count; unpaginated ones are streamed in keyset batches.
 */
export async function messageHistory({ ctx, input }: { ctx: AuthContext; input: HistoryQuery }): Promise<HistoryResult> {
  const window = resolveWindow(input.from_date, input.to_date);
  const digits = sanitizeNumber(input.customer_source);
  // Every read of the history may be a moment behind: it goes to the replica when there is one.
  const found = await withReadDb(ctx.teamId, (db) =>
    findConversation(db, {
      teamId: ctx.teamId,
      number: sanitizeNumber(input.wa_number),
      digits: /^\d+$/.test(digits) ? digits : null,
      customerId: input.customer_source,
    }),
  );
  if (!found) throw ApiError.invalid("wa_number", WA_NUMBER_NOT_REGISTERED);
  const paging = (total: number) => (input.with_pagination ? paginationMeta(total, input.per_page, input.page) : null);
  // Ruling 14: a customer with no contact simply has no history.
  if (found.contactId === null) return { message: HISTORY_OK, data: [], pagination: paging(0) };

  const conversation = (ids: IdRange): Conversation => ({
    teamId: ctx.teamId,
    waNumberId: found.waNumberId,
    contactId: found.contactId,
    window,
    timeZone: config.timezone,
    ids,
  });
  // The window as an id range the planner prunes partitions by; checked by the statement itself.
  const read = <T>(fn: (db: Db, c: Conversation) => Promise<T>) =>
    withReadDb(ctx.teamId, (db) =>
      idRanges.run(
        () => partitionBounds(db),
        window,
        (ids) => fn(db, conversation(ids)),
      ),
    );
  const toRecord = toHistoryRecordWith(input.include);
  if (input.with_pagination) {
    const offset = offsetOf(input.page, input.per_page);
    const { rows, total } = await read((db, c) => historyPage(db, { conversation: c, order: input.order, limit: input.per_page, offset }));
    return { message: HISTORY_OK, data: rows.map(toRecord), pagination: paging(total) };
  }
  const batch = async (afterId: number | null) =>
    (await read((db, c) => historyBatch(db, { conversation: c, order: input.order, afterId }))).map(toRecord);
  const first = await batch(null);
  return { message: HISTORY_OK, stream: streamHistory(HISTORY_OK, first, HISTORY_BATCH, batch) };
}
