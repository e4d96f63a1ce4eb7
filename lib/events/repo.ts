import "server-only";
import { and, asc, eq, lt, sql } from "drizzle-orm";
import { rowsOf, type DbOrTx, type Tx } from "@/db/client";
import { events } from "@/db/schema";
import type { NewEvent, StoredEvent } from "./schemas";
import { eventCatalogue } from "./catalogue";
import { ADVISORY_LOCKS } from "@/db/advisory-locks";

const columns = {
  id: events.id,
  xact: events.xactId,
  teamId: events.teamId,
  type: events.type,
  waNumberId: events.waNumberId,
  contactId: events.contactId,
  data: events.data,
};

/**
 * Appends events in the caller's transaction: they exist exactly when what caused them commits,
 * and carry that transaction's id (the column's default), by which every reader orders them. Each
 * `data` is parsed with its type's schema (lib/events/catalogue.ts) first: what the log holds is
 * what the browser and the OpenAPI document expect, to the key.
 */
export async function insertEvents(db: DbOrTx, rows: NewEvent[]): Promise<void> {
  if (!rows.length) return;
  await db.insert(events).values(
    rows.map((r) => ({
      teamId: r.teamId,
      type: r.type,
      waNumberId: r.waNumberId ?? null,
      contactId: r.contactId ?? null,
      data: eventCatalogue[r.type].parse(r.data),
    })),
  );
}

export type EventFilter = { waNumberId?: number; contactId?: number };
/** A place in the log: after every event before (xact, id) in (xact_id, id) order. */
export type LogCursor = { xact: string; id: number };

/**
 * Every transaction older than the oldest one still running has finished, and this statement
 * sees all of those that committed: events below this horizon can be read in (xact_id, id) order
 * with none still to come before them (docs/write-path.md).
 */
const horizon = sql`pg_snapshot_xmin(pg_current_snapshot())`;

/** The log's horizon now: where a reader that wants only what comes next starts. */
export async function currentHorizon(db: DbOrTx): Promise<string> {
  const [row] = rowsOf<{ h: string }>(await db.execute(sql`SELECT ${horizon}::text AS h`));
  return row.h;
}

/**
 * The next events of `teamIds` after `cursor`, below the horizon, in (xact_id, id) order, and the
 * horizon they were read under (one statement, one snapshot). When fewer than `limit` came back,
 * everything below the horizon was read and the reader's next cursor is (horizon, 0).
 */
export async function tailEvents(
  db: DbOrTx,
  { cursor, teamIds, limit }: { cursor: LogCursor; teamIds: number[]; limit: number },
): Promise<{ horizon: string; events: StoredEvent[] }> {
  const res = await db.execute(sql`
    WITH h AS (SELECT ${horizon} AS x)
    SELECT h.x::text AS horizon, e.id, e.xact_id::text AS xact, e.team_id, e.type, e.wa_number_id, e.contact_id, e.data
    FROM h LEFT JOIN LATERAL (
      SELECT * FROM ${events}
      WHERE (xact_id, id) > (${cursor.xact}::xid8, ${cursor.id}::bigint) AND xact_id < h.x
        AND team_id = ANY(${`{${teamIds.join(",")}}`}::int[])
      ORDER BY xact_id, id LIMIT ${limit}
    ) e ON true`);
  const rows = rowsOf<{
    horizon: string;
    id: string | number | null;
    xact: string;
    team_id: number;
    type: string;
    wa_number_id: number | null;
    contact_id: number | null;
    data: unknown;
  }>(res);
  return {
    horizon: rows[0].horizon,
    events: rows
      .filter((r) => r.id !== null)
      .map((r) => ({
        id: Number(r.id),
        xact: r.xact,
        teamId: Number(r.team_id),
        type: r.type,
        waNumberId: r.wa_number_id == null ? null : Number(r.wa_number_id),
        contactId: r.contact_id == null ? null : Number(r.contact_id),
        data: typeof r.data === "string" ? JSON.parse(r.data) : r.data,
      })),
  };
}

/**
 * A team's events after `cursor` and below the horizon, in (xact_id, id) order, narrowed by the
 * stream's filters: a reconnect's replay reads what the live tail would have delivered next.
 */
export async function listEventsAfter(
  db: DbOrTx,
  { teamId, cursor, filter, limit }: { teamId: number; cursor: LogCursor; filter: EventFilter; limit: number },
): Promise<StoredEvent[]> {
  return db
    .select(columns)
    .from(events)
    .where(
      and(
        eq(events.teamId, teamId),
        sql`(${events.xactId}, ${events.id}) > (${cursor.xact}::xid8, ${cursor.id}::bigint)`,
        sql`${events.xactId} < ${horizon}`,
        filter.waNumberId === undefined ? undefined : eq(events.waNumberId, filter.waNumberId),
        filter.contactId === undefined ? undefined : eq(events.contactId, filter.contactId),
      ),
    )
    .orderBy(asc(events.xactId), asc(events.id))
    .limit(limit);
}

/**
 * Deletes up to `batch` events older than `before` and returns the highest id deleted (0 if
 * none). Batches keep each delete short; SKIP LOCKED lets several processes prune at once.
 */
export async function pruneEventsBefore(db: DbOrTx, { before, batch }: { before: Date; batch: number }): Promise<number> {
  const result = await db.execute(sql`
    WITH doomed AS (
      SELECT id FROM ${events} WHERE ${lt(events.createdAt, before)} ORDER BY id LIMIT ${batch} FOR UPDATE SKIP LOCKED
    ), gone AS (
      DELETE FROM ${events} WHERE id IN (SELECT id FROM doomed) RETURNING id
    )
    SELECT coalesce(max(id), 0)::bigint AS max_id FROM gone`);
  return Number(rowsOf<{ max_id: string | number }>(result)[0]?.max_id ?? 0);
}

/** Where the team's event `id` is in the log; undefined when it is not (pruned, or foreign). */
export async function eventCursor(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<LogCursor | undefined> {
  const [row] = await db
    .select({ xact: events.xactId, id: events.id })
    .from(events)
    .where(and(eq(events.teamId, teamId), eq(events.id, id)))
    .limit(1);
  return row;
}

// Every process runs the events chore; one at a time does the partition work (the others skip it).
const PARTITIONS_LOCK = ADVISORY_LOCKS.eventPartitions;

/**
 * Creates the partitions of today and the next `daysAhead` days and drops those wholly before
 * `dropBefore` (db/functions/events_partitions.sql). Attaching and dropping lock the log for a
 * moment: with a 2 s lock_timeout the work gives way to a long writer and is tried again at the
 * next run, rather than making every writer queue behind it. Undefined when another process
 * holds the work. Takes a `Tx`: the lock and lock_timeout last for the caller's transaction.
 */
export async function maintainEventPartitions(
  db: Tx,
  { daysAhead, dropBefore }: { daysAhead: number; dropBefore: Date },
): Promise<{ made: number; dropped: number } | undefined> {
  const [lock] = rowsOf<{ ok: boolean }>(await db.execute(sql`SELECT pg_try_advisory_xact_lock(${PARTITIONS_LOCK}) AS ok`));
  if (!lock?.ok) return undefined;
  await db.execute(sql`SET LOCAL lock_timeout = '2s'`);
  const [row] = rowsOf<{ made: number; dropped: number }>(
    await db.execute(
      sql`SELECT events_ensure_partitions(${daysAhead}::int) AS made, events_drop_partitions(${dropBefore.toISOString()}::timestamptz) AS dropped`,
    ),
  );
  return { made: Number(row.made), dropped: Number(row.dropped) };
}
