import "server-only";
import { and, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { getDb, rowsOf, type DbOrTx } from "@/db/client";
import { broadcastRejections, broadcasts, templates, waNumbers } from "@/db/schema";
import { CANCELLED_TITLE, type RecipientStatusFilter } from "./schemas";

/** The SQL of broadcasts. Every query filters by team. */
export type BroadcastRow = typeof broadcasts.$inferSelect;

const ids = (list: number[]) =>
  sql.join(
    list.map((n) => sql`${n}::int`),
    sql`, `,
  );

// A message left unsent by a cancel: FAILED with this error (no provider code).
const IS_CANCELLED = sql`(m.error ->> 'title' = ${CANCELLED_TITLE} AND m.error ->> 'code' IS NULL)`;
// Went out (the provider accepted it): what a reply can be attributed to.
const WENT_OUT = sql`m.status IN ('SENDED', 'SENT', 'DELIVERED', 'READED')`;
/**
 * Replied: the message went out and the customer wrote in the same conversation after it was
 * enqueued (after its scheduled time for a scheduled broadcast). conversations.last_inbound_at is
 * kept by the messages trigger, so this is one index lookup per message, no scan of inbound rows.
 */
const REPLIED = sql`(${WENT_OUT} AND c.last_inbound_at > greatest(m.created_at, b.scheduled_at))`;
const CONVERSATION = sql`LEFT JOIN conversations c ON c.team_id = m.team_id AND c.wa_number_id = m.wa_number_id AND c.contact_id = m.contact_id`;

// ---- Broadcast rows ----

export async function insertBroadcast(db: DbOrTx, values: typeof broadcasts.$inferInsert): Promise<BroadcastRow> {
  const [row] = await db.insert(broadcasts).values(values).returning();
  return row;
}

export async function findBroadcast(db: DbOrTx, teamId: number, id: number): Promise<BroadcastRow | undefined> {
  const [row] = await db
    .select()
    .from(broadcasts)
    .where(and(eq(broadcasts.teamId, teamId), eq(broadcasts.id, id)))
    .limit(1);
  return row;
}

/** The row locked for a lifecycle change: every change takes the broadcast first, then its messages. */
export async function lockBroadcast(tx: DbOrTx, teamId: number, id: number): Promise<BroadcastRow | undefined> {
  const [row] = await tx
    .select()
    .from(broadcasts)
    .where(and(eq(broadcasts.teamId, teamId), eq(broadcasts.id, id)))
    .for("update")
    .limit(1);
  return row;
}

export async function updateBroadcast(tx: DbOrTx, teamId: number, id: number, values: PgUpdateSetSource<typeof broadcasts>) {
  const [row] = await tx
    .update(broadcasts)
    .set(values)
    .where(and(eq(broadcasts.teamId, teamId), eq(broadcasts.id, id)))
    .returning();
  return row;
}

export async function listBroadcastRows(teamId: number, limit: number, offset: number) {
  const db = await getDb();
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(broadcasts).where(eq(broadcasts.teamId, teamId)).orderBy(desc(broadcasts.id)).limit(limit).offset(offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(broadcasts)
      .where(eq(broadcasts.teamId, teamId)),
  ]);
  return { rows, total: Number(total) };
}

/** The number digits and template of each broadcast row, for its DTO. */
export async function namesOf(db: DbOrTx, teamId: number, rows: BroadcastRow[]) {
  const numberIds = [...new Set(rows.map((r) => r.waNumberId))];
  const templateIds = [...new Set(rows.map((r) => r.templateId))];
  if (!rows.length)
    return { numbers: new Map<number, string>(), templates: new Map<number, { id: number; name: string; language: string }>() };
  const [nums, tpls] = await Promise.all([
    db
      .select({ id: waNumbers.id, number: waNumbers.number })
      .from(waNumbers)
      .where(and(eq(waNumbers.teamId, teamId), inArray(waNumbers.id, numberIds))),
    db
      .select({ id: templates.id, name: templates.name, language: templates.language })
      .from(templates)
      .where(and(eq(templates.teamId, teamId), inArray(templates.id, templateIds))),
  ]);
  return { numbers: new Map(nums.map((n) => [n.id, n.number])), templates: new Map(tpls.map((t) => [t.id, t])) };
}

/** Records one enqueued batch: counters and the cursor move with the rows they describe. */
export async function recordBatch(tx: DbOrTx, teamId: number, id: number, queued: number, rejected: number, cursor: number) {
  await tx
    .update(broadcasts)
    .set({
      recipients: sql`${broadcasts.recipients} + ${queued + rejected}`,
      rejected: sql`${broadcasts.rejected} + ${rejected}`,
      enqueueCursor: cursor,
    })
    .where(and(eq(broadcasts.teamId, teamId), eq(broadcasts.id, id)));
}

export async function insertRejections(tx: DbOrTx, rows: (typeof broadcastRejections.$inferInsert)[]) {
  if (!rows.length) return;
  await tx.insert(broadcastRejections).values(rows);
}

// ---- Lifecycle on the messages (always after the broadcast row is locked) ----

/** Pause: the broadcast's queued messages leave the queue (next_attempt_at NULL is never due). */
export async function parkQueued(tx: DbOrTx, teamId: number, id: number) {
  await tx.execute(sql`
    UPDATE messages SET next_attempt_at = NULL
    WHERE team_id = ${teamId} AND broadcast_id = ${id} AND status = 'QUEUED' AND next_attempt_at IS NOT NULL`);
}

/** Resume: the parked messages are due again at `at` (the send pacing per number applies as always). */
export async function unparkQueued(tx: DbOrTx, teamId: number, id: number, at: Date) {
  await tx.execute(sql`
    UPDATE messages SET next_attempt_at = ${at.toISOString()}::timestamptz
    WHERE team_id = ${teamId} AND broadcast_id = ${id} AND status = 'QUEUED' AND next_attempt_at IS NULL`);
}

/**
 * Cancel: QUEUED → FAILED "Difusión cancelada", with their audit events. A message a worker holds
 * (live lease) is only parked here: the worker checks the broadcast just before its send and gives
 * it back (lib/delivery), and the next sweep fails it; failing it under the worker could record as
 * cancelled a send that has just left. Returns how many were failed now.
 */
export async function failQueued(tx: DbOrTx, teamId: number, id: number): Promise<number> {
  await parkQueued(tx, teamId, id);
  const error = JSON.stringify({ code: null, title: CANCELLED_TITLE });
  const res = await tx.execute(sql`
    WITH failed AS (
      UPDATE messages SET status = 'FAILED', error = ${error}::jsonb, status_updated_at = now(), locked_until = NULL
      WHERE team_id = ${teamId} AND broadcast_id = ${id} AND status = 'QUEUED' AND (locked_until IS NULL OR locked_until < now())
      RETURNING id, team_id
    ), logged AS (
      INSERT INTO message_events (team_id, message_id, status, raw)
      SELECT team_id, id, 'FAILED', jsonb_build_object('error', ${error}::jsonb, 'cancelled_broadcast', ${id}::int) FROM failed
    )
    SELECT count(*)::int AS n FROM failed`);
  return Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);
}

export async function hasQueued(db: DbOrTx, teamId: number, id: number): Promise<boolean> {
  const res = await db.execute(sql`
    SELECT EXISTS (SELECT 1 FROM messages WHERE team_id = ${teamId} AND broadcast_id = ${id} AND status = 'QUEUED') AS q`);
  return Boolean(rowsOf<{ q: boolean }>(res)[0]?.q);
}

// ---- Counts ----

export type StatusCount = { broadcast_id: number; status: string; cancelled: boolean; n: number };

/** Messages per broadcast, status and cancelled-or-not (one index range per broadcast). */
export async function statusCounts(db: DbOrTx, teamId: number, broadcastIds: number[]): Promise<StatusCount[]> {
  if (!broadcastIds.length) return [];
  const res = await db.execute(sql`
    SELECT m.broadcast_id, m.status, (m.status = 'FAILED' AND ${IS_CANCELLED}) AS cancelled, count(*)::int AS n
    FROM messages m WHERE m.team_id = ${teamId} AND m.broadcast_id IN (${ids(broadcastIds)})
    GROUP BY 1, 2, 3`);
  return rowsOf<StatusCount>(res).map((r) => ({
    ...r,
    broadcast_id: Number(r.broadcast_id),
    cancelled: Boolean(r.cancelled),
    n: Number(r.n),
  }));
}

export async function repliedCounts(db: DbOrTx, teamId: number, broadcastIds: number[]): Promise<Map<number, number>> {
  if (!broadcastIds.length) return new Map();
  const res = await db.execute(sql`
    SELECT m.broadcast_id, count(*)::int AS n
    FROM messages m JOIN broadcasts b ON b.team_id = m.team_id AND b.id = m.broadcast_id ${CONVERSATION}
    WHERE m.team_id = ${teamId} AND m.broadcast_id IN (${ids(broadcastIds)}) AND ${REPLIED}
    GROUP BY 1`);
  return new Map(rowsOf<{ broadcast_id: number; n: number }>(res).map((r) => [Number(r.broadcast_id), Number(r.n)]));
}

export type FailureCount = { broadcast_id: number; code: number | null; title: string; count: number };

export async function failureCounts(db: DbOrTx, teamId: number, broadcastIds: number[]): Promise<FailureCount[]> {
  if (!broadcastIds.length) return [];
  const res = await db.execute(sql`
    SELECT m.broadcast_id, (m.error ->> 'code') AS code, coalesce(m.error ->> 'title', '') AS title, count(*)::int AS n
    FROM messages m
    WHERE m.team_id = ${teamId} AND m.broadcast_id IN (${ids(broadcastIds)}) AND m.status = 'FAILED' AND NOT coalesce(${IS_CANCELLED}, false)
    GROUP BY 1, 2, 3 ORDER BY 4 DESC, 2`);
  return rowsOf<{ broadcast_id: number; code: string | null; title: string; n: number }>(res).map((r) => ({
    broadcast_id: Number(r.broadcast_id),
    code: r.code === null || r.code === "" || Number.isNaN(Number(r.code)) ? null : Number(r.code),
    title: r.title,
    count: Number(r.n),
  }));
}

// ---- Recipients ----

export type RecipientRow = {
  kind: "m" | "r";
  id: number;
  contact_id: number;
  name: string | null;
  customer_number: string | null;
  update_id: string | null;
  status: string;
  error: { code: number | null; title: string } | null;
  rejected_errors: Record<string, string[]> | null;
  replied: boolean;
  updated_at: Date | string;
};

function recipientFilter(status: RecipientStatusFilter | undefined): { messages: SQL | null; rejections: boolean } {
  if (!status) return { messages: sql`TRUE`, rejections: true };
  if (status === "REJECTED") return { messages: null, rejections: true };
  if (status === "CANCELLED") return { messages: sql`m.status = 'FAILED' AND ${IS_CANCELLED}`, rejections: false };
  if (status === "FAILED") return { messages: sql`m.status = 'FAILED' AND NOT coalesce(${IS_CANCELLED}, false)`, rejections: false };
  return { messages: sql`m.status = ${status}`, rejections: false };
}

function recipientsUnion(
  teamId: number,
  broadcastId: number,
  status: RecipientStatusFilter | undefined,
  after?: { kind: "m" | "r"; id: number },
) {
  const f = recipientFilter(status);
  const parts: SQL[] = [];
  if (f.messages && after?.kind !== "r") {
    parts.push(sql`
      SELECT 'm' AS kind, m.id, m.contact_id, ct.name, m.customer_number, m.update_id::text AS update_id, m.status,
        CASE WHEN m.status = 'FAILED' THEN m.error END AS error, NULL::jsonb AS rejected_errors,
        coalesce(${REPLIED}, false) AS replied, m.status_updated_at AS updated_at
      FROM messages m JOIN broadcasts b ON b.team_id = m.team_id AND b.id = m.broadcast_id
        JOIN contacts ct ON ct.team_id = m.team_id AND ct.id = m.contact_id ${CONVERSATION}
      WHERE m.team_id = ${teamId} AND m.broadcast_id = ${broadcastId} AND ${f.messages} ${after?.kind === "m" ? sql`AND m.id > ${after.id}` : sql``}`);
  }
  if (f.rejections) {
    parts.push(sql`
      SELECT 'r' AS kind, r.id, r.contact_id, ct.name, ct.customer_number, NULL AS update_id, 'REJECTED' AS status,
        NULL::jsonb AS error, r.errors AS rejected_errors, false AS replied, r.created_at AS updated_at
      FROM broadcast_rejections r JOIN contacts ct ON ct.team_id = r.team_id AND ct.id = r.contact_id
      WHERE r.team_id = ${teamId} AND r.broadcast_id = ${broadcastId} ${after?.kind === "r" ? sql`AND r.id > ${after.id}` : sql``}`);
  }
  return parts;
}

const toRecipientRow = (r: RecipientRow): RecipientRow => ({
  ...r,
  id: Number(r.id),
  contact_id: Number(r.contact_id),
  replied: Boolean(r.replied),
});

/** A page of a broadcast's recipients: its messages in id order, then its rejected contacts. */
export async function listRecipientRows(
  teamId: number,
  broadcastId: number,
  status: RecipientStatusFilter | undefined,
  limit: number,
  offset: number,
): Promise<{ rows: RecipientRow[]; total: number }> {
  const parts = recipientsUnion(teamId, broadcastId, status);
  if (!parts.length) return { rows: [], total: 0 };
  const db = await getDb();
  const union = sql.join(parts, sql` UNION ALL `);
  const [rows, count] = await Promise.all([
    db.execute(sql`SELECT * FROM (${union}) u ORDER BY (kind = 'r'), id LIMIT ${limit} OFFSET ${offset}`),
    db.execute(sql`SELECT count(*)::int AS n FROM (${union}) u`),
  ]);
  return { rows: rowsOf<RecipientRow>(rows).map(toRecipientRow), total: Number(rowsOf<{ n: number }>(count)[0]?.n ?? 0) };
}

/** The next `limit` recipients after `after` in the same order (keyset, for the streamed CSV). */
export async function recipientRowsAfter(
  teamId: number,
  broadcastId: number,
  status: RecipientStatusFilter | undefined,
  after: { kind: "m" | "r"; id: number } | undefined,
  limit: number,
): Promise<RecipientRow[]> {
  const parts = recipientsUnion(teamId, broadcastId, status, after);
  if (!parts.length) return [];
  const db = await getDb();
  const res = await db.execute(sql`SELECT * FROM (${sql.join(parts, sql` UNION ALL `)}) u ORDER BY (kind = 'r'), id LIMIT ${limit}`);
  return rowsOf<RecipientRow>(res).map(toRecipientRow);
}

// ---- Timeline ----

export type TimelineRow = { at: Date | string; sent: number; delivered: number; read: number; failed: number };

/** Applied status changes of the broadcast's messages per minute or hour (cancels left out). */
export async function timelineRows(teamId: number, broadcastId: number, bucket: "minute" | "hour"): Promise<TimelineRow[]> {
  const db = await getDb();
  const res = await db.execute(sql`
    SELECT date_trunc(${bucket}, e.at) AS at,
      count(*) FILTER (WHERE e.status = 'SENDED')::int AS sent,
      count(*) FILTER (WHERE e.status = 'DELIVERED')::int AS delivered,
      count(*) FILTER (WHERE e.status = 'READED')::int AS read,
      count(*) FILTER (WHERE e.status = 'FAILED' AND NOT (e.raw ? 'cancelled_broadcast'))::int AS failed
    FROM messages m JOIN message_events e ON e.message_id = m.id AND e.team_id = m.team_id
    WHERE m.team_id = ${teamId} AND m.broadcast_id = ${broadcastId} AND e.applied = 1
      AND e.status IN ('SENDED', 'DELIVERED', 'READED', 'FAILED')
    GROUP BY 1 ORDER BY 1`);
  return rowsOf<TimelineRow>(res);
}

// ---- The delivery worker's fence ----

/**
 * Whether a claimed broadcast message may leave now: still QUEUED under this claim, and its
 * broadcast still sending (a pause or cancel committed since the claim stops it here).
 */
export async function broadcastMaySend(messageId: number, attempts: number): Promise<boolean> {
  const db = await getDb();
  // The message is read by its primary key alone, in a CTE of its own: joined directly, a prepared
  // statement's generic plan could read it through messages_broadcast_status_idx (status =
  // 'QUEUED', id only a filter), scanning every queued message of every broadcast for each send;
  // with stale statistics during a 100,000-recipient broadcast the worker fell to 63 sends/s.
  const res = await db.execute(sql`
    WITH m AS MATERIALIZED (SELECT team_id, broadcast_id, status, attempts FROM messages WHERE id = ${messageId})
    SELECT 1 AS ok FROM m JOIN broadcasts b ON b.team_id = m.team_id AND b.id = m.broadcast_id
    WHERE m.status = 'QUEUED' AND m.attempts = ${attempts} AND b.status IN ('SCHEDULED', 'SENDING')`);
  return rowsOf(res).length > 0;
}

/**
 * Gives a stopped claim back, the attempt uncounted: parked (out of the queue until a resume) if
 * its broadcast is still stopped, else due again. The broadcast row is read under FOR SHARE, so a
 * resume (which locks it FOR UPDATE, then un-parks the messages) either commits first and is seen
 * here, or waits for this and then finds the message parked. Parking blindly lost that race: a
 * resume landing between broadcastMaySend and this park left the message parked (next_attempt_at
 * NULL) under a SENDING broadcast, QUEUED for ever, and the broadcast never DONE.
 */
export async function parkClaim(messageId: number, attempts: number) {
  const db = await getDb();
  await db.execute(sql`
    WITH m AS MATERIALIZED (SELECT team_id, broadcast_id FROM messages WHERE id = ${messageId}),
    b AS (
      SELECT b.status, b.scheduled_at FROM m JOIN broadcasts b ON b.team_id = m.team_id AND b.id = m.broadcast_id
      FOR SHARE OF b
    )
    UPDATE messages m SET locked_until = NULL, attempts = m.attempts - 1,
      next_attempt_at = (SELECT CASE WHEN b.status IN ('SCHEDULED', 'SENDING') THEN greatest(now(), coalesce(b.scheduled_at, now())) END FROM b)
    WHERE m.id = ${messageId} AND m.status = 'QUEUED' AND m.attempts = ${attempts}`);
}

// ---- Interrupted enqueues ----

/**
 * Broadcasts whose enqueue stopped before the end of their audience (the process died): not
 * finished enqueuing, not cancelled, and nothing enqueued for `idleMs` (their newest message, or
 * their creation). A slow run still going is harmless to resume beside: runs take turns on the
 * row lock from the committed cursor.
 */
export async function interruptedEnqueues(idleMs: number, limit: number, teamIds?: number[]): Promise<BroadcastRow[]> {
  const db = await getDb();
  const teams = teamIds?.length ? sql`AND b.team_id IN (${ids(teamIds)})` : sql``;
  const res = await db.execute(sql`
    SELECT b.id, b.team_id FROM broadcasts b
    WHERE b.enqueued_at IS NULL AND b.status <> 'CANCELLED' AND b.created_at < now() - ${idleMs} * interval '1 millisecond' ${teams}
      AND coalesce((SELECT m.created_at FROM messages m WHERE m.team_id = b.team_id AND m.broadcast_id = b.id ORDER BY m.id DESC LIMIT 1), b.created_at)
        < now() - ${idleMs} * interval '1 millisecond'
    ORDER BY b.id LIMIT ${limit}`);
  const found = rowsOf<{ id: number; team_id: number }>(res);
  const rows = await Promise.all(found.map((r) => findBroadcast(db, Number(r.team_id), Number(r.id))));
  return rows.filter((r): r is BroadcastRow => !!r);
}

export async function templateOfBroadcast(row: BroadcastRow) {
  const db = await getDb();
  const [t] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.teamId, row.teamId), eq(templates.id, row.templateId)))
    .limit(1);
  return t;
}

// ---- The progress sweep ----

/**
 * Broadcasts whose counts may still move and whose last event is older than `minAgeMs`: not
 * finished, or finished in the last hour (deliveries and reads keep arriving), of the given teams.
 */
export async function dueForProgress(minAgeMs: number, limit: number, teamIds?: number[]): Promise<{ teamId: number; id: number }[]> {
  const db = await getDb();
  const teams = teamIds?.length ? sql`AND team_id IN (${ids(teamIds)})` : sql``;
  const res = await db.execute(sql`
    SELECT team_id, id FROM broadcasts
    WHERE (status IN ('SCHEDULED', 'SENDING', 'PAUSED') OR finished_at > now() - interval '1 hour')
      AND (progress_at IS NULL OR progress_at < now() - ${minAgeMs} * interval '1 millisecond') ${teams}
    ORDER BY progress_at NULLS FIRST LIMIT ${limit}`);
  return rowsOf<{ team_id: number; id: number }>(res).map((r) => ({ teamId: Number(r.team_id), id: Number(r.id) }));
}

/** Locks a broadcast for a sweep, skipping it if another process is at it. */
export async function lockForSweep(tx: DbOrTx, teamId: number, id: number): Promise<BroadcastRow | undefined> {
  const [row] = await tx
    .select()
    .from(broadcasts)
    .where(and(eq(broadcasts.teamId, teamId), eq(broadcasts.id, id)))
    .for("update", { skipLocked: true })
    .limit(1);
  return row;
}
