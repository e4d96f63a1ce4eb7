import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type DbOrTx, type Tx } from "@/db/client";
import { ADVISORY_LOCKS } from "@/db/advisory-locks";

export type StatsFilter = { waNumberId?: number; template?: string; sentGroup?: string; from?: string; to?: string };
export type StatsRow = { status: string; error_code: number; error_title: string; messages: number };

/**
 * The team's outbound counts by status and error from the rollups plus the deltas not folded yet
 * (db/functions/message_stats_count.sql), never from `messages`. A range without dates is read
 * from message_stats_totals (one row per key, however deep the history); otherwise the whole UTC
 * months inside the range are read from message_stats_months, only the days at its ragged ends
 * from message_stats (a team's four years is some fifty month rows per key instead of 1,461 day
 * rows), each through its primary key (team, day or month…) or, for one sent_group, its (team,
 * sent_group) index; the deltas are what about a second of writes left. One statement, so a fold
 * committing meanwhile (it moves the days and, by their triggers, the months and the totals) is
 * seen whole or not at all. Days are UTC dates, both ends included.
 */
export async function sumMessageStats(db: DbOrTx, { teamId, filter: f }: { teamId: number; filter: StatsFilter }): Promise<StatsRow[]> {
  const rows = rowsOf<{ status: string; error_code: number | string; error_title: string; messages: number | string }>(
    await db.execute(sql`SELECT status, error_code, error_title, sum(messages) AS messages
      FROM (${rollupRows(teamId, f)}
            UNION ALL SELECT c.* FROM message_stats_deltas d, ${deltaChanges} WHERE ${where(teamId, f)} AND ${isChange}) s
      GROUP BY status, error_code, error_title
      HAVING sum(messages) <> 0`),
  );
  return rows.map((r) => ({
    status: r.status,
    error_code: Number(r.error_code),
    error_title: r.error_title,
    messages: Number(r.messages),
  }));
}

/**
 * The one or two changes a message_stats_deltas row `d` stands for, as (status, error_code,
 * error_title, messages): its count at its own key and, for a move (`from_status` set, written by
 * messages_status_changed.sql), the same count taken out of the key it left.
 */
const deltaChanges = sql.raw(`LATERAL (VALUES (d.status, d.error_code, d.error_title, d.messages),
    (d.from_status, d.from_error_code, d.from_error_title, -d.messages)) c(status, error_code, error_title, messages)`);
const isChange = sql.raw(`c.status IS NOT NULL`);

function where(teamId: number, f: StatsFilter) {
  return sql`team_id = ${teamId}
    ${f.from ? sql`AND day >= ${f.from}::date` : sql``}
    ${f.to ? sql`AND day <= ${f.to}::date` : sql``}
    ${keyFilter(f)}`;
}

function keyFilter(f: StatsFilter) {
  return sql`${f.waNumberId !== undefined ? sql`AND wa_number_id = ${f.waNumberId}` : sql``}
    ${f.template !== undefined ? sql`AND template_name = ${f.template}` : sql``}
    ${f.sentGroup !== undefined ? sql`AND sent_group = ${f.sentGroup}` : sql``}`;
}

/**
 * The folded counts of the range as (status, error_code, error_title, messages) rows: all time
 * from message_stats_totals when the range has no dates; else its whole months from
 * message_stats_months, the days outside them from message_stats (all of them when the range
 * holds no whole month).
 */
function rollupRows(teamId: number, f: StatsFilter) {
  if (!f.from && !f.to) {
    return sql`SELECT status, error_code, error_title, messages FROM message_stats_totals WHERE team_id = ${teamId} ${keyFilter(f)}`;
  }
  const months = wholeMonths(f.from, f.to);
  const days = sql`SELECT status, error_code, error_title, messages FROM message_stats WHERE ${where(teamId, f)}`;
  if (!months) return days;
  const { start, end } = months;
  const inMonths = sql`SELECT status, error_code, error_title, messages FROM message_stats_months WHERE team_id = ${teamId}
    ${start ? sql`AND month >= ${start}::date` : sql``}
    ${end ? sql`AND month < ${end}::date` : sql``}
    ${keyFilter(f)}`;
  // The days before the first whole month and from the end of the last one (none when open-ended).
  const edges = [start && sql`day < ${start}::date`, end && sql`day >= ${end}::date`].filter((e): e is SQL => !!e);
  if (!edges.length) return inMonths;
  return sql`${inMonths} UNION ALL ${days} AND (${sql.join(edges, sql` OR `)})`;
}

/**
 * The whole UTC months inside the days [from, to] (both included, either open) as [start, end):
 * the first day of the first whole month and the first day after the last one (undefined when that
 * end is open); null when the range holds no whole month.
 */
export function wholeMonths(from?: string, to?: string): { start?: string; end?: string } | null {
  const firstOf = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  const nextMonth = (d: Date) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1));
  const iso = (d: Date) => d.toISOString().slice(0, 10);
  let start: Date | undefined;
  let end: Date | undefined;
  if (from) {
    const d = new Date(`${from}T00:00:00Z`);
    start = d.getUTCDate() === 1 ? d : nextMonth(d);
  }
  if (to) {
    const d = new Date(`${to}T00:00:00Z`);
    const dayAfter = new Date(d.getTime() + 86_400_000);
    end = dayAfter.getUTCDate() === 1 ? dayAfter : firstOf(d);
  }
  if (start && end && start >= end) return null;
  return { start: start && iso(start), end: end && iso(end) };
}

/** Deltas folded per run at most: one run stays a short transaction however far behind it is. */
const FOLD_BATCH = 50_000;
const FOLD_LOCK = ADVISORY_LOCKS.statsFold;

/**
 * Moves up to FOLD_BATCH deltas into message_stats, summed per key, in one transaction; returns
 * how many it moved (-1 when another process was folding). Only one process folds at a time (a
 * transaction-scoped advisory lock, skipped if taken): the writers it serves never wait for it,
 * and the upserts it makes in key order are the only writes to message_stats. A key that nets to
 * 0 is kept at 0, as the rollup always kept counted-out keys. Takes a `Tx`: the try-lock lasts for the caller's transaction.
 */
export async function foldMessageStatsDeltas(db: Tx): Promise<number> {
  const [lock] = rowsOf<{ ok: boolean }>(await db.execute(sql`SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}) AS ok`));
  if (!lock?.ok) return -1;
  const res = await db.execute(sql`
    WITH gone AS (
      DELETE FROM message_stats_deltas WHERE ctid = ANY (ARRAY(SELECT ctid FROM message_stats_deltas LIMIT ${FOLD_BATCH}))
      RETURNING *
    ), summed AS (
      SELECT d.team_id, d.day, d.wa_number_id, d.template_name, d.sent_group, c.status, c.error_code, c.error_title,
        sum(c.messages) AS messages
      FROM gone d, ${deltaChanges} WHERE ${isChange} GROUP BY 1, 2, 3, 4, 5, 6, 7, 8
    ), folded AS (
      INSERT INTO message_stats AS s (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
      SELECT team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, messages
      FROM summed ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
      ON CONFLICT (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title)
      DO UPDATE SET messages = s.messages + EXCLUDED.messages
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM gone)::int AS moved, (SELECT count(*) FROM folded)::int AS keys`);
  return Number(rowsOf<{ moved: number }>(res)[0]?.moved ?? 0);
}
