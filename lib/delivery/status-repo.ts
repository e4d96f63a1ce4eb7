import "server-only";
import { and, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { messageStatusHistory, messages, type MessageStatus, type ProviderError } from "@/db/schema";
import type { ChannelNumber } from "@/lib/channels/types";

/** The SQL of the status path (status.ts): every query filters by the number and its team. */
export type MessageRow = typeof messages.$inferSelect;

/**
 * A queued send of this number with no provider id yet, found by its update_id (the callback
 * data the send carried), and whether a worker's lease on it still holds (by the database's clock).
 */
export async function findUnconfirmedSend(
  db: DbOrTx,
  { number, updateId }: { number: ChannelNumber; updateId: string },
): Promise<{ message: MessageRow; leased: boolean } | undefined> {
  const [row] = await db
    .select({ message: messages, leased: sql<boolean>`coalesce(${messages.lockedUntil} > now(), false)` })
    .from(messages)
    .where(
      and(
        eq(messages.updateId, updateId),
        eq(messages.waNumberId, number.id),
        eq(messages.teamId, number.teamId),
        eq(messages.direction, "OUTBOUND"),
        eq(messages.status, "QUEUED"),
        isNull(messages.providerMessageId),
      ),
    )
    .limit(1);
  return row;
}

/**
 * QUEUED → SENDED with the provider id a status webhook reported for it: the send reached the
 * provider but its answer was never committed (a crash, a timeout). Recorded as a SENDED event
 * marked `adopted`. Any worker still holding a claim on it is fenced out by the status change.
 */
export async function adoptProviderId(
  db: DbOrTx,
  { id, providerMessageId }: { id: number; providerMessageId: string },
): Promise<MessageRow | undefined> {
  const [row] = await db
    .update(messages)
    .set({ status: "SENDED", providerMessageId, lockedUntil: null, error: null, statusUpdatedAt: sql`now()` })
    .where(and(eq(messages.id, id), eq(messages.status, "QUEUED"), isNull(messages.providerMessageId)))
    .returning();
  if (row) {
    await db.insert(messageStatusHistory).values({
      teamId: row.teamId,
      messageId: row.id,
      status: "SENDED",
      raw: { provider_message_id: providerMessageId, adopted: "status webhook" },
    });
  }
  return row;
}

/** A messages row as `row_to_json` gives it (column names), read back as drizzle's row. */
function messageFromJson(json: Record<string, unknown> | null): MessageRow | undefined {
  if (!json) return undefined;
  const row: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(messages))) {
    const value = json[column.name];
    row[key] = value != null && column.columnType === "PgTimestamp" ? new Date(value as string) : (value ?? null);
  }
  return row as MessageRow;
}

/** One status to move (moveKnownStatuses): `next` undefined is a status we only record. */
export type StatusMove = {
  providerMessageId: string;
  next?: MessageStatus;
  from: MessageStatus[];
  error?: ProviderError;
  label: string;
  raw: unknown;
};
export type StatusMoveResult = { current?: MessageRow; updated?: MessageRow };

/**
 * Statuses of messages we know by their provider ids, in ONE statement whatever their number:
 * find each message (its id from message_provider_ids, then the message by (id, team_id): one
 * partition of messages, pruned as the statement runs; OFFSET 0 keeps that lookup a subquery
 * run per id, which the planner would otherwise flatten into a join that may not prune at all), the guarded move (only from one of `from`, so reordered callbacks never move
 * it backwards), and its message_status_history row (applied or not). `next` undefined: a status we do
 * not apply, only record. Three round trips per status folded into one statement per batch on
 * the hottest write of the service (every status webhook; lib/delivery/status-batch.ts groups
 * concurrent webhooks into one call). One UPDATE changes a row at most once, so the caller never
 * passes two statuses of one message in one call. Results come back in the order of `moves`:
 * the message as it was (undefined: not ours) and as it is after the move (undefined: not moved).
 */
export async function moveKnownStatuses(db: DbOrTx, moves: { number: ChannelNumber; move: StatusMove }[]): Promise<StatusMoveResult[]> {
  if (!moves.length) return [];
  const input = moves.map(({ number, move: s }, idx) => ({
    idx,
    team_id: number.teamId,
    wa_number_id: number.id,
    provider_id: s.providerMessageId,
    next: s.next ?? null,
    from_list: s.from,
    error: s.error ?? null,
    label: s.label,
    raw: s.raw ?? null,
  }));
  const res = await db.execute(sql`
    WITH input AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
        AS i(idx int, team_id int, wa_number_id int, provider_id text, next text, from_list text[], error jsonb, label text, raw jsonb)
    ), cur AS (
      SELECT i.idx, i.team_id, i.next, i.from_list, i.error, i.label, i.raw, m.id AS message_id, m.direction,
        row_to_json(m) AS row
      FROM input i CROSS JOIN LATERAL (
        SELECT m.* FROM message_provider_ids p
        CROSS JOIN LATERAL (SELECT * FROM messages m WHERE m.id = p.message_id AND m.team_id = p.team_id OFFSET 0) m
        WHERE p.wa_number_id = i.wa_number_id AND p.provider_message_id = i.provider_id AND p.team_id = i.team_id
        LIMIT 1
      ) m
    ), moved AS (
      UPDATE messages m
      SET status = c.next, status_updated_at = now(), locked_until = NULL, error = coalesce(c.error, m.error)
      FROM cur c
      WHERE m.id = c.message_id AND m.team_id = c.team_id AND c.direction = 'OUTBOUND' AND c.next IS NOT NULL
        AND m.status = ANY(c.from_list)
      RETURNING c.idx, row_to_json(m) AS row
    ), audit AS (
      INSERT INTO message_status_history (team_id, message_id, status, applied, raw)
      SELECT c.team_id, c.message_id, c.label, CASE WHEN EXISTS (SELECT 1 FROM moved WHERE moved.idx = c.idx) THEN 1 ELSE 0 END, c.raw
      FROM cur c WHERE c.direction = 'OUTBOUND'
      ORDER BY c.idx
    )
    SELECT i.idx, cur.row AS current, moved.row AS updated
    FROM input i LEFT JOIN cur USING (idx) LEFT JOIN moved USING (idx)
    ORDER BY i.idx`);
  const rows = rowsOf<{ idx: number; current: unknown; updated: unknown }>(res);
  const parse = (v: unknown) =>
    typeof v === "string" ? (JSON.parse(v) as Record<string, unknown>) : (v as Record<string, unknown> | null);
  const out: StatusMoveResult[] = moves.map(() => ({}));
  for (const r of rows) {
    out[Number(r.idx)] = { current: messageFromJson(parse(r.current)), updated: messageFromJson(parse(r.updated)) };
  }
  return out;
}

/** moveKnownStatuses for one status. */
export async function moveKnownStatus(db: DbOrTx, { number, s }: { number: ChannelNumber; s: StatusMove }): Promise<StatusMoveResult> {
  const [result] = await moveKnownStatuses(db, [{ number, move: s }]);
  return result;
}
