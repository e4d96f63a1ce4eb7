import "server-only";
import { and, eq, getTableColumns, isNull, sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { messageEvents, messages, type MessageStatus, type ProviderError } from "@/db/schema";
import type { ChannelNumber } from "@/lib/channels/types";

/** The SQL of the status path (status.ts): every query filters by the number and its team. */
export type MessageRow = typeof messages.$inferSelect;

/**
 * A queued send of this number with no provider id yet, found by its update_id (the callback
 * data the send carried), and whether a worker's lease on it still holds (by the database's clock).
 */
export async function findUnconfirmedSend(
  tx: DbOrTx,
  number: ChannelNumber,
  updateId: string,
): Promise<{ message: MessageRow; leased: boolean } | undefined> {
  const [row] = await tx
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
export async function adoptProviderId(tx: DbOrTx, id: number, providerMessageId: string): Promise<MessageRow | undefined> {
  const [row] = await tx
    .update(messages)
    .set({ status: "SENDED", providerMessageId, lockedUntil: null, error: null, statusUpdatedAt: sql`now()` })
    .where(and(eq(messages.id, id), eq(messages.status, "QUEUED"), isNull(messages.providerMessageId)))
    .returning();
  if (row) {
    await tx.insert(messageEvents).values({
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

/**
 * A status of a message we know by its provider id, in ONE statement: find it, the guarded move
 * (only from one of `from`, so reordered callbacks never move it backwards), and its
 * message_events row (applied or not). `next` undefined: a status we do not apply, only record.
 * Three round trips folded into one on the hottest write of the service (every status webhook).
 * Returns the message as it was (undefined: not ours) and as it is after the move (undefined: not moved).
 */
export async function moveKnownStatus(
  tx: DbOrTx,
  number: ChannelNumber,
  s: { providerMessageId: string; next?: MessageStatus; from: MessageStatus[]; error?: ProviderError; label: string; raw: unknown },
): Promise<{ current?: MessageRow; updated?: MessageRow }> {
  const res = await tx.execute(sql`
    WITH cur AS (
      SELECT * FROM messages
      WHERE wa_number_id = ${number.id} AND provider_message_id = ${s.providerMessageId} AND team_id = ${number.teamId}
      LIMIT 1
    ), moved AS (
      UPDATE messages m
      SET status = ${s.next ?? null}::text, status_updated_at = now(), locked_until = NULL,
        error = coalesce(${s.error ? JSON.stringify(s.error) : null}::jsonb, m.error)
      FROM cur
      WHERE m.id = cur.id AND cur.direction = 'OUTBOUND' AND ${s.next ?? null}::text IS NOT NULL
        AND m.status = ANY(${`{${s.from.join(",")}}`}::text[])
      RETURNING m.*
    ), audit AS (
      INSERT INTO message_events (team_id, message_id, status, applied, raw)
      SELECT cur.team_id, cur.id, ${s.label}, CASE WHEN EXISTS (SELECT 1 FROM moved) THEN 1 ELSE 0 END,
        ${JSON.stringify(s.raw ?? null)}::jsonb
      FROM cur WHERE cur.direction = 'OUTBOUND'
    )
    SELECT (SELECT row_to_json(cur) FROM cur) AS current, (SELECT row_to_json(moved) FROM moved) AS updated`);
  const [row] = rowsOf<{ current: Record<string, unknown> | null; updated: Record<string, unknown> | null }>(res);
  const parse = (v: unknown) =>
    typeof v === "string" ? (JSON.parse(v) as Record<string, unknown>) : (v as Record<string, unknown> | null);
  return { current: messageFromJson(parse(row?.current)), updated: messageFromJson(parse(row?.updated)) };
}
