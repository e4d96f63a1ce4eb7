import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { REPLY_WINDOW_HOURS } from "@/db/schema";

/**
 * The SQL of a number's messaging limit (messaging-limit.ts decides with it): which customers the
 * number counted in the rolling window, the delivery gate's admissions and deferrals, and the
 * wake-up of the waiting ones when Meta raises the tier. Every statement filters by team.
 *
 * A customer counts when one of the number's templates to them was stamped (`limit_counted_at`)
 * within the window and did not fail, unless their customer-service window is open (a message of
 * theirs within REPLY_WINDOW_HOURS, read from the conversation row: one index lookup per customer).
 * The range of the window is read from messages_limit_idx (team, number, limit_counted_at, contact).
 */

type NumberKey = { teamId: number; waNumberId: number };
const windowStart = (windowMs: number) => sql`now() - ${Math.round(windowMs)} * interval '1 millisecond'`;
const serviceWindowOpen = ({ teamId, waNumberId }: NumberKey, contactId: ReturnType<typeof sql>) => sql`EXISTS (
  SELECT 1 FROM conversations v WHERE v.team_id = ${teamId} AND v.wa_number_id = ${waNumberId} AND v.contact_id = ${contactId}
    AND v.last_inbound_at > now() - ${REPLY_WINDOW_HOURS} * interval '1 hour')`;

/** The number's messaging limit tier, locked (FOR NO KEY UPDATE: message inserts' KEY SHARE still pass) so that gates of one number take turns. */
export async function lockNumberTier(db: DbOrTx, k: NumberKey): Promise<string | null | undefined> {
  const res = await db.execute(sql`
    SELECT messaging_limit_tier AS tier FROM wa_numbers WHERE team_id = ${k.teamId} AND id = ${k.waNumberId} FOR NO KEY UPDATE`);
  const row = rowsOf<{ tier: string | null }>(res)[0];
  return row ? row.tier : undefined;
}

/**
 * How many customers the number counted in the window (`used`), the database's clock, and when
 * the first `expiries` of them leave it (epoch ms, earliest first): when room frees.
 */
export async function windowUse(
  db: DbOrTx,
  k: NumberKey & { windowMs: number; expiries: number },
): Promise<{ used: number; nowMs: number; expiries: number[] }> {
  const res = await db.execute(sql`
    WITH counted AS (
      SELECT m.contact_id, max(m.limit_counted_at) AS last_at
      FROM messages m
      WHERE m.team_id = ${k.teamId} AND m.wa_number_id = ${k.waNumberId}
        AND m.limit_counted_at IS NOT NULL AND m.limit_counted_at > ${windowStart(k.windowMs)} AND m.status <> 'FAILED'
      GROUP BY m.contact_id
    ), billed AS (
      SELECT c.last_at FROM counted c WHERE NOT ${serviceWindowOpen(k, sql`c.contact_id`)}
    )
    SELECT (SELECT count(*) FROM billed)::int AS used,
      (extract(epoch FROM now()) * 1000)::float8 AS now_ms,
      (SELECT coalesce(json_agg((extract(epoch FROM x.last_at) * 1000)::float8 + ${Math.round(k.windowMs)} ORDER BY x.last_at), '[]'::json)
       FROM (SELECT last_at FROM billed ORDER BY last_at LIMIT ${Math.max(0, k.expiries)}) x) AS expiries`);
  const row = rowsOf<{ used: number | string; now_ms: number | string; expiries: number[] | string }>(res)[0];
  const expiries = typeof row.expiries === "string" ? (JSON.parse(row.expiries) as number[]) : row.expiries;
  return { used: Number(row.used), nowMs: Number(row.now_ms), expiries: expiries.map(Number) };
}

/**
 * Of these customers, those that take no new room: already counted in the window (one read of the
 * window's range, as windowUse), or with their service window open (a lookup each).
 */
export async function freeCustomers(db: DbOrTx, k: NumberKey & { windowMs: number; contactIds: number[] }): Promise<Set<number>> {
  if (!k.contactIds.length) return new Set();
  const batch = sql`(SELECT (j.v)::int FROM jsonb_array_elements_text(${JSON.stringify(k.contactIds)}::jsonb) AS j(v))`;
  const res = await db.execute(sql`
    SELECT DISTINCT m.contact_id FROM messages m
    WHERE m.team_id = ${k.teamId} AND m.wa_number_id = ${k.waNumberId}
      AND m.limit_counted_at IS NOT NULL AND m.limit_counted_at > ${windowStart(k.windowMs)} AND m.status <> 'FAILED'
      AND m.contact_id IN ${batch}
    UNION
    SELECT v.contact_id FROM conversations v
    WHERE v.team_id = ${k.teamId} AND v.wa_number_id = ${k.waNumberId} AND v.contact_id IN ${batch}
      AND v.last_inbound_at > now() - ${REPLY_WINDOW_HOURS} * interval '1 hour'`);
  return new Set(rowsOf<{ contact_id: number | string }>(res).map((r) => Number(r.contact_id)));
}

type Fenced = { id: number; attempts: number };

/** Stamps the admitted claims (a stamp still inside the window is kept), each fenced by its claim; returns the ids stamped. */
export async function stampCounted(db: DbOrTx, k: { teamId: number; windowMs: number; claims: Fenced[] }): Promise<Set<number>> {
  if (!k.claims.length) return new Set();
  const res = await db.execute(sql`
    UPDATE messages m
    SET limit_counted_at = CASE WHEN m.limit_counted_at > ${windowStart(k.windowMs)} THEN m.limit_counted_at ELSE now() END
    FROM jsonb_to_recordset(${JSON.stringify(k.claims)}::jsonb) AS v(id bigint, attempts int)
    WHERE m.team_id = ${k.teamId} AND m.id = v.id AND m.status = 'QUEUED' AND m.attempts = v.attempts
    RETURNING m.id`);
  return new Set(rowsOf<{ id: number | string }>(res).map((r) => Number(r.id)));
}

/**
 * Gives claims back to wait for room: due again at their own time, unleased, the attempt uncounted
 * (as a graceful release), each fenced by its claim.
 */
export async function deferClaims(db: DbOrTx, k: { teamId: number; items: (Fenced & { atMs: number })[] }): Promise<void> {
  if (!k.items.length) return;
  const rows = JSON.stringify(k.items.map((i) => ({ id: i.id, attempts: i.attempts, at_ms: i.atMs })));
  await db.execute(sql`
    UPDATE messages m SET next_attempt_at = to_timestamp(v.at_ms / 1000.0), locked_until = NULL, attempts = m.attempts - 1
    FROM jsonb_to_recordset(${rows}::jsonb) AS v(id bigint, attempts int, at_ms float8)
    WHERE m.team_id = ${k.teamId} AND m.id = v.id AND m.status = 'QUEUED' AND m.attempts = v.attempts`);
}

/**
 * The messages of the number's sending broadcasts that wait for room (QUEUED, not yet counted,
 * due later, in no worker's hands) are due now: the tier was raised, the gate decides again.
 * Returns how many.
 */
export async function wakeWaiting(db: DbOrTx, k: NumberKey): Promise<number> {
  const res = await db.execute(sql`
    UPDATE messages m SET next_attempt_at = now()
    WHERE m.team_id = ${k.teamId}
      AND m.broadcast_id IN (SELECT b.id FROM broadcasts b WHERE b.team_id = ${k.teamId} AND b.wa_number_id = ${k.waNumberId} AND b.status = 'SENDING')
      AND m.status = 'QUEUED' AND m.next_attempt_at > now() AND m.limit_counted_at IS NULL AND m.locked_until IS NULL
    RETURNING m.id`);
  return rowsOf(res).length;
}

/** A broadcast's messages still to open a conversation (QUEUED, not counted in the window), and those of them waiting for room (due later). */
export async function broadcastPending(
  db: DbOrTx,
  k: { teamId: number; broadcastId: number; windowMs: number },
): Promise<{ pending: number; waiting: number; nextAtMs: number | null }> {
  const res = await db.execute(sql`
    SELECT count(*)::int AS pending,
      count(*) FILTER (WHERE next_attempt_at > now())::int AS waiting,
      (extract(epoch FROM min(next_attempt_at) FILTER (WHERE next_attempt_at > now())) * 1000)::float8 AS next_ms
    FROM messages
    WHERE team_id = ${k.teamId} AND broadcast_id = ${k.broadcastId} AND status = 'QUEUED'
      AND (limit_counted_at IS NULL OR limit_counted_at <= ${windowStart(k.windowMs)})`);
  const row = rowsOf<{ pending: number | string; waiting: number | string; next_ms: number | string | null }>(res)[0];
  return { pending: Number(row.pending), waiting: Number(row.waiting), nextAtMs: row.next_ms == null ? null : Number(row.next_ms) };
}

/** The messaging limit tier of some of the team's numbers, by id. */
export async function numberTiers(db: DbOrTx, k: { teamId: number; ids: number[] }): Promise<Map<number, string | null>> {
  if (!k.ids.length) return new Map();
  const res = await db.execute(sql`
    SELECT id, messaging_limit_tier AS tier FROM wa_numbers
    WHERE team_id = ${k.teamId} AND id IN (${sql.join(
      k.ids.map((i) => sql`${i}`),
      sql`, `,
    )})`);
  return new Map(rowsOf<{ id: number; tier: string | null }>(res).map((r) => [Number(r.id), r.tier]));
}
