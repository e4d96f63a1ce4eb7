import "server-only";
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import type { PgUpdateSetSource } from "drizzle-orm/pg-core";
import { rowsOf, type DbOrTx } from "@/db/client";
import { broadcastRejections, broadcasts, templates, waNumbers } from "@/db/schema";
import { ids } from "./repo-fragments";

/**
 * The SQL of broadcast rows (and their rejections). Every query filters by team. Their messages'
 * lifecycle statements are in messages-repo.ts, the counts in counts-repo.ts, the recipients list
 * and timeline in recipients-repo.ts.
 */
export type BroadcastRow = typeof broadcasts.$inferSelect;

/** The database's clock in an update (finished_at, progress_at): the one the claim's `now()` reads. */
export const NOW = sql`now()`;

export async function insertBroadcast(db: DbOrTx, values: typeof broadcasts.$inferInsert): Promise<BroadcastRow> {
  const [row] = await db.insert(broadcasts).values(values).returning();
  return row;
}

export async function findBroadcast(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<BroadcastRow | undefined> {
  const [row] = await db
    .select()
    .from(broadcasts)
    .where(and(eq(broadcasts.teamId, teamId), eq(broadcasts.id, id)))
    .limit(1);
  return row;
}

/** The row locked for a lifecycle change: every change takes the broadcast first, then its messages. */
export async function lockBroadcast(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<BroadcastRow | undefined> {
  const [row] = await db
    .select()
    .from(broadcasts)
    .where(and(eq(broadcasts.teamId, teamId), eq(broadcasts.id, id)))
    .for("update")
    .limit(1);
  return row;
}

/** The team's broadcasts of one template that may still send (SCHEDULED, SENDING), locked, in id order. */
export async function lockSendingOfTemplate(
  db: DbOrTx,
  { teamId, templateId }: { teamId: number; templateId: number },
): Promise<BroadcastRow[]> {
  return db
    .select()
    .from(broadcasts)
    .where(and(eq(broadcasts.teamId, teamId), eq(broadcasts.templateId, templateId), inArray(broadcasts.status, ["SCHEDULED", "SENDING"])))
    .orderBy(broadcasts.id)
    .for("update");
}

export async function updateBroadcast(
  db: DbOrTx,
  { teamId, id, values }: { teamId: number; id: number; values: PgUpdateSetSource<typeof broadcasts> },
) {
  const [row] = await db
    .update(broadcasts)
    .set(values)
    .where(and(eq(broadcasts.teamId, teamId), eq(broadcasts.id, id)))
    .returning();
  return row;
}

export async function listBroadcastRows(db: DbOrTx, { teamId, limit, offset }: { teamId: number; limit: number; offset: number }) {
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
export async function namesOf(db: DbOrTx, { teamId, rows }: { teamId: number; rows: BroadcastRow[] }) {
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
export async function recordBatch(
  db: DbOrTx,
  { teamId, id, queued, rejected, cursor }: { teamId: number; id: number; queued: number; rejected: number; cursor: number },
) {
  await db
    .update(broadcasts)
    .set({
      recipients: sql`${broadcasts.recipients} + ${queued + rejected}`,
      rejected: sql`${broadcasts.rejected} + ${rejected}`,
      enqueueCursor: cursor,
    })
    .where(and(eq(broadcasts.teamId, teamId), eq(broadcasts.id, id)));
}

export async function insertRejections(db: DbOrTx, rows: (typeof broadcastRejections.$inferInsert)[]) {
  if (!rows.length) return;
  await db.insert(broadcastRejections).values(rows);
}

/**
 * Broadcasts whose enqueue stopped before the end of their audience (the process died): not
 * finished enqueuing, not cancelled, and nothing enqueued for `idleMs` (their newest message, or
 * their creation). A slow run still going is harmless to resume beside: runs take turns on the
 * row lock from the committed cursor.
 */
export async function interruptedEnqueues(
  db: DbOrTx,
  { idleMs, limit, teamIds }: { idleMs: number; limit: number; teamIds?: number[] },
): Promise<BroadcastRow[]> {
  const teams = teamIds?.length ? sql`AND b.team_id IN (${ids(teamIds)})` : sql``;
  const res = await db.execute(sql`
    SELECT b.id, b.team_id FROM broadcasts b
    WHERE b.enqueued_at IS NULL AND b.status <> 'CANCELLED' AND b.created_at < now() - ${idleMs} * interval '1 millisecond' ${teams}
      AND coalesce((SELECT m.created_at FROM messages m WHERE m.team_id = b.team_id AND m.broadcast_id = b.id ORDER BY m.id DESC LIMIT 1), b.created_at)
        < now() - ${idleMs} * interval '1 millisecond'
    ORDER BY b.id LIMIT ${limit}`);
  const found = rowsOf<{ id: number; team_id: number }>(res);
  const rows = await Promise.all(found.map((r) => findBroadcast(db, { teamId: Number(r.team_id), id: Number(r.id) })));
  return rows.filter((r): r is BroadcastRow => !!r);
}

export async function templateOfBroadcast(db: DbOrTx, row: BroadcastRow) {
  const [t] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.teamId, row.teamId), eq(templates.id, row.templateId)))
    .limit(1);
  return t;
}

/**
 * Broadcasts the sweep should look at, of the given teams: those whose counts may still move (not
 * finished, or finished in the last hour: deliveries and reads keep arriving) and whose last event
 * is older than `minAgeMs`, and, whatever their last event, those a state change may be due for (a
 * scheduled time that has come; a whole audience enqueued with nothing QUEUED left), so a change
 * waits for the next sweep, not for the throttle of progress events. A candidate only:
 * lifecycle.ts decides under the row lock.
 */
export async function dueForProgress(
  db: DbOrTx,
  { minAgeMs, limit, teamIds }: { minAgeMs: number; limit: number; teamIds?: number[] },
): Promise<{ teamId: number; id: number }[]> {
  const teams = teamIds?.length ? sql`AND b.team_id IN (${ids(teamIds)})` : sql``;
  const res = await db.execute(sql`
    SELECT b.team_id, b.id FROM broadcasts b
    WHERE (b.status IN ('SCHEDULED', 'SENDING', 'PAUSED') OR b.finished_at > now() - interval '1 hour') ${teams}
      AND (b.progress_at IS NULL OR b.progress_at < now() - ${minAgeMs} * interval '1 millisecond'
        OR (b.status = 'SCHEDULED' AND b.scheduled_at <= now())
        OR (b.status = 'SENDING' AND b.enqueued_at IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.team_id = b.team_id AND m.broadcast_id = b.id AND m.status = 'QUEUED')))
    ORDER BY b.progress_at NULLS FIRST LIMIT ${limit}`);
  return rowsOf<{ team_id: number; id: number }>(res).map((r) => ({ teamId: Number(r.team_id), id: Number(r.id) }));
}

/** Locks a broadcast for a sweep, skipping it if another process is at it. */
export async function lockForSweep(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<BroadcastRow | undefined> {
  const [row] = await db
    .select()
    .from(broadcasts)
    .where(and(eq(broadcasts.teamId, teamId), eq(broadcasts.id, id)))
    .for("update", { skipLocked: true })
    .limit(1);
  return row;
}
