import "server-only";
import { and, asc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import { getDb, rowsOf, type DbOrTx } from "@/db/client";
import { events } from "@/db/schema";
import type { NewEvent, StoredEvent } from "./schemas";

const columns = {
  id: events.id,
  teamId: events.teamId,
  type: events.type,
  waNumberId: events.waNumberId,
  contactId: events.contactId,
  data: events.data,
};

/**
 * Appends events in the caller's transaction: they exist (and are announced by the table's
 * NOTIFY trigger) exactly when what caused them commits.
 */
export async function insertEvents(db: DbOrTx, rows: NewEvent[]): Promise<void> {
  if (!rows.length) return;
  await db
    .insert(events)
    .values(
      rows.map((r) => ({ teamId: r.teamId, type: r.type, waNumberId: r.waNumberId ?? null, contactId: r.contactId ?? null, data: r.data })),
    );
}

export type EventFilter = { waNumberId?: number; contactId?: number };

/** A team's events after `afterId`, oldest first, narrowed by the stream's filters. */
export async function listEventsAfter(teamId: number, afterId: number, filter: EventFilter, limit: number): Promise<StoredEvent[]> {
  const db = await getDb();
  return db
    .select(columns)
    .from(events)
    .where(
      and(
        eq(events.teamId, teamId),
        gt(events.id, afterId),
        filter.waNumberId === undefined ? undefined : eq(events.waNumberId, filter.waNumberId),
        filter.contactId === undefined ? undefined : eq(events.contactId, filter.contactId),
      ),
    )
    .orderBy(asc(events.id))
    .limit(limit);
}

/** Events of one team by id (a NOTIFY too large to carry its event names only the id). */
export async function findEvents(teamId: number, ids: number[]): Promise<StoredEvent[]> {
  if (!ids.length) return [];
  const db = await getDb();
  return db
    .select(columns)
    .from(events)
    .where(and(eq(events.teamId, teamId), inArray(events.id, ids)))
    .orderBy(asc(events.id));
}

/**
 * Deletes up to `batch` events older than `before` and returns the highest id deleted (0 if
 * none). Batches keep each delete short; SKIP LOCKED lets several processes prune at once.
 */
export async function pruneEventsBefore(before: Date, batch: number): Promise<number> {
  const db = await getDb();
  const result = await db.execute(sql`
    WITH doomed AS (
      SELECT id FROM ${events} WHERE ${lt(events.createdAt, before)} ORDER BY id LIMIT ${batch} FOR UPDATE SKIP LOCKED
    ), gone AS (
      DELETE FROM ${events} WHERE id IN (SELECT id FROM doomed) RETURNING id
    )
    SELECT coalesce(max(id), 0)::bigint AS max_id FROM gone`);
  return Number(rowsOf<{ max_id: string | number }>(result)[0]?.max_id ?? 0);
}

/** Whether the team's event `id` is still in the log (pruned or foreign ids are not). */
export async function eventExists(teamId: number, id: number): Promise<boolean> {
  const db = await getDb();
  const rows = await db
    .select({ id: events.id })
    .from(events)
    .where(and(eq(events.teamId, teamId), eq(events.id, id)))
    .limit(1);
  return rows.length > 0;
}
