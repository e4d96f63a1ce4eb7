import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, transaction, withReadDb } from "@/db/client";
import type { ReportMetric } from "@/db/schema/reports";
import { ADVISORY_LOCKS } from "@/db/advisory-locks";

export type ReportFilter = { from: string; to: string; waNumberId?: number; labelId?: number; agentId?: number };
/** By day (null: the whole range) or by agent. */
export type ReportGroup = "day" | "agent";

type Num = number | string | null;
/**
 * One metric of one day, agent or the whole range (key null): its sample count, and for the median
 * and the 90th percentile the values (lib/reports/buckets.ts: their buckets' means) of the two
 * samples percentile_cont would interpolate between.
 */
export type TimeRow = { key: Num; metric: ReportMetric; n: Num; p50_lo: Num; p50_hi: Num; p90_lo: Num; p90_hi: Num };
export type CountRow = { key: Num; messages_in: Num; messages_out: Num };

/**
 * Every read goes through the (team_id, day) index or primary key of a rollup (db/schema/reports.ts),
 * never `messages`; without a label filter only the per-day ones (a few rows per day). The label
 * filter is today's assignments (contact_labels' primary key answers each probe), so a report by
 * label follows relabelling without rewriting the rollups.
 */
function where(teamId: number, f: ReportFilter): SQL {
  return sql`team_id = ${teamId} AND day BETWEEN ${f.from}::date AND ${f.to}::date
    ${f.waNumberId !== undefined ? sql`AND wa_number_id = ${f.waNumberId}` : sql``}
    ${f.agentId !== undefined ? sql`AND agent_id = ${f.agentId}` : sql``}
    ${
      f.labelId !== undefined
        ? sql`AND contact_id IN (SELECT contact_id FROM contact_labels WHERE team_id = ${teamId} AND label_id = ${f.labelId})`
        : sql``
    }`;
}

/** Per day plus a total row (key null) with GROUP BY ROLLUP. */
function groupBy(g: ReportGroup): { key: SQL; group: SQL } {
  return g === "day"
    ? { key: sql`to_char(day, 'YYYY-MM-DD')`, group: sql`GROUP BY ROLLUP (day)` }
    : { key: sql`agent_id`, group: sql`GROUP BY agent_id` };
}

/**
 * Per key and metric, the sample count and the values at the ranks of the median and the p90. The
 * key stays a date or an integer until the end (sorting text compares by collation, several times
 * slower), counts are int4 and second sums float8 (exact far beyond any range's total) so that no
 * sum goes through numeric.
 */
function percentileValues(k: SQL, key: SQL, source: SQL, group: SQL): SQL {
  // upto: samples in this bucket and below it, so the sample of rank r (from 0) is in the first
  // bucket whose upto exceeds r; buckets do not overlap, so their means rise with them and the
  // first one's mean is the smallest. Ranks as percentile_cont takes them, in float8 like it.
  const at = (p: number, f: "floor" | "ceil") => sql.raw(`min(mean) FILTER (WHERE upto > ${f}(${p}::float8 * (total - 1)::float8))`);
  return sql`WITH h AS (SELECT ${k} AS k, metric, bucket, sum(samples)::int4 AS n, sum(seconds) AS seconds FROM ${source} ${group}),
    c AS (SELECT k, metric, seconds / n AS mean, sum(n) OVER (PARTITION BY k, metric ORDER BY bucket) AS upto,
            sum(n) OVER (PARTITION BY k, metric) AS total
          FROM h)
    SELECT ${key} AS key, metric, max(total) AS n, ${at(0.5, "floor")} AS p50_lo, ${at(0.5, "ceil")} AS p50_hi,
      ${at(0.9, "floor")} AS p90_lo, ${at(0.9, "ceil")} AS p90_hi
    FROM c GROUP BY k, metric`;
}

/**
 * Which level of report_histograms answers a report (db/schema/reports.ts): the filtered number or
 * 0 (every number); the filtered agent, every agent's own rows when grouping by agent, or -1 (every
 * agent). The fewest rows that hold the answer: the team's whole days when nothing is filtered.
 */
function histogramWhere(teamId: number, f: ReportFilter, g: ReportGroup): SQL {
  const agent = f.agentId !== undefined ? sql`agent_id = ${f.agentId}` : g === "agent" ? sql`agent_id >= 0` : sql`agent_id = -1`;
  return sql`team_id = ${teamId} AND day BETWEEN ${f.from}::date AND ${f.to}::date
    AND wa_number_id = ${f.waNumberId ?? 0} AND ${agent}`;
}

/**
 * First responses, resolutions and openings with the values of their percentiles. Without a label
 * filter, from report_histograms plus its deltas not folded yet, in one statement (a fold
 * committing meanwhile is seen whole or not at all). With one, the label's contacts' samples are
 * bucketed as they are read (the same buckets, so the same figures): a label is today's
 * assignments, which no per-day rollup can follow.
 */
export async function timeFigures(teamId: number, f: ReportFilter, g: ReportGroup): Promise<TimeRow[]> {
  return withReadDb(teamId, async (db) => {
    const cols = sql`day, agent_id, metric COLLATE "C" AS metric, bucket, samples::int4 AS samples, seconds::float8 AS seconds`;
    const source =
      f.labelId === undefined
        ? sql`(SELECT ${cols} FROM report_histograms WHERE ${histogramWhere(teamId, f, g)}
          UNION ALL SELECT ${cols} FROM report_histogram_deltas WHERE ${histogramWhere(teamId, f, g)}) s`
        : sql`(SELECT day, agent_id, 'first_response' COLLATE "C" AS metric, report_seconds_bucket(seconds) AS bucket, 1 AS samples,
              seconds::float8 AS seconds
            FROM report_responses WHERE ${where(teamId, f)}
          UNION ALL SELECT day, agent_id, CASE WHEN kind = 'opened' THEN 'opened' ELSE 'resolution' END COLLATE "C",
            CASE WHEN kind = 'opened' THEN 0 ELSE report_seconds_bucket(seconds) END, 1, coalesce(seconds, 0)::float8
            FROM report_conversation_events WHERE ${where(teamId, f)}) s`;
    const byDay = g === "day";
    // Per day plus a total (k null) whose percentiles are over all the range's samples.
    const group = byDay ? sql`GROUP BY GROUPING SETS ((day, metric, bucket), (metric, bucket))` : sql`GROUP BY agent_id, metric, bucket`;
    const [k, key] = byDay ? [sql`day`, sql`to_char(k, 'YYYY-MM-DD')`] : [sql`agent_id`, sql`k`];
    return rowsOf<TimeRow>(await db.execute(percentileValues(k, key, source, group)));
  });
}

/**
 * Messages in and out. Without a label filter, from report_message_days plus its deltas not folded
 * yet, in one statement (a fold committing meanwhile is seen whole or not at all): a few rows per
 * day. With one, from the per-customer counts of the label's contacts.
 */
export async function messageFigures(teamId: number, f: ReportFilter, g: ReportGroup): Promise<CountRow[]> {
  return withReadDb(teamId, async (db) => {
    const { key, group } = groupBy(g);
    const source =
      f.labelId === undefined
        ? sql`(SELECT * FROM report_message_days WHERE ${where(teamId, f)}
          UNION ALL SELECT * FROM report_message_deltas WHERE ${where(teamId, f)}) s`
        : sql`report_message_counts WHERE ${where(teamId, f)}`;
    return rowsOf<CountRow>(
      await db.execute(sql`SELECT ${key} AS key, coalesce(sum(messages) FILTER (WHERE direction = 'INBOUND'), 0) AS messages_in,
        coalesce(sum(messages) FILTER (WHERE direction = 'OUTBOUND'), 0) AS messages_out
      FROM ${source} ${group}`),
    );
  });
}

/** Deltas folded per run at most: one run stays a short transaction however far behind it is. */
const FOLD_BATCH = 50_000;
const FOLD_LOCK = ADVISORY_LOCKS.reportMessagesFold;

/**
 * Moves up to FOLD_BATCH report_message_deltas into report_message_days, summed per key, in one
 * transaction (as foldMessageStatsDeltas does for message_stats); returns how many it moved, -1
 * when another process was folding. One process at a time (a transaction-scoped try-lock), and its
 * key-ordered upserts are the only writes to report_message_days, so writers never wait for it.
 */
export async function foldReportMessageDeltas(): Promise<number> {
  return transaction(async (tx) => {
    const [lock] = rowsOf<{ ok: boolean }>(await tx.execute(sql`SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}) AS ok`));
    if (!lock?.ok) return -1;
    const res = await tx.execute(sql`
      WITH gone AS (
        DELETE FROM report_message_deltas WHERE ctid = ANY (ARRAY(SELECT ctid FROM report_message_deltas LIMIT ${FOLD_BATCH}))
        RETURNING *
      ), summed AS (
        SELECT team_id, day, wa_number_id, agent_id, direction, sum(messages) AS messages, count(*) AS n FROM gone GROUP BY 1, 2, 3, 4, 5
      ), folded AS (
        INSERT INTO report_message_days AS d (team_id, day, wa_number_id, agent_id, direction, messages)
        SELECT team_id, day, wa_number_id, agent_id, direction, messages FROM summed ORDER BY 1, 2, 3, 4, 5
        ON CONFLICT (team_id, day, wa_number_id, agent_id, direction) DO UPDATE SET messages = d.messages + EXCLUDED.messages
        RETURNING 1
      )
      SELECT coalesce((SELECT sum(n) FROM summed), 0)::int AS moved, (SELECT count(*) FROM folded)::int AS keys`);
    return Number(rowsOf<{ moved: number }>(res)[0]?.moved ?? 0);
  });
}

/** Exported for the tests that hold it to see deltas not folded yet on a shared database. */
export const HISTOGRAM_FOLD_LOCK = ADVISORY_LOCKS.reportHistogramsFold;

/**
 * Moves up to FOLD_BATCH report_histogram_deltas into report_histograms, as
 * foldReportMessageDeltas does for the message counts (its own try-lock, so the two folds never
 * wait for each other); returns how many it moved, -1 when another process was folding.
 */
export async function foldReportHistogramDeltas(): Promise<number> {
  return transaction(async (tx) => {
    const [lock] = rowsOf<{ ok: boolean }>(await tx.execute(sql`SELECT pg_try_advisory_xact_lock(${HISTOGRAM_FOLD_LOCK}) AS ok`));
    if (!lock?.ok) return -1;
    const res = await tx.execute(sql`
      WITH gone AS (
        DELETE FROM report_histogram_deltas WHERE ctid = ANY (ARRAY(SELECT ctid FROM report_histogram_deltas LIMIT ${FOLD_BATCH}))
        RETURNING *
      ), summed AS (
        SELECT team_id, day, wa_number_id, agent_id, metric, bucket, sum(samples) AS samples, sum(seconds) AS seconds, count(*) AS n
        FROM gone GROUP BY 1, 2, 3, 4, 5, 6
      ), folded AS (
        INSERT INTO report_histograms AS h (team_id, day, wa_number_id, agent_id, metric, bucket, samples, seconds)
        SELECT team_id, day, wa_number_id, agent_id, metric, bucket, samples, seconds FROM summed ORDER BY 1, 2, 3, 4, 5, 6
        ON CONFLICT (team_id, day, wa_number_id, agent_id, metric, bucket)
        DO UPDATE SET samples = h.samples + EXCLUDED.samples, seconds = h.seconds + EXCLUDED.seconds
        RETURNING 1
      )
      SELECT coalesce((SELECT sum(n) FROM summed), 0)::int AS moved, (SELECT count(*) FROM folded)::int AS keys`);
    return Number(rowsOf<{ moved: number }>(res)[0]?.moved ?? 0);
  });
}

/** Names of the team's agents among `ids` (another team's id finds nothing). */
export async function agentNames(teamId: number, ids: number[]): Promise<Map<number, string>> {
  return withReadDb(teamId, async (db) => {
    if (!ids.length) return new Map();
    const rows = rowsOf<{ id: number; name: string }>(
      await db.execute(
        sql`SELECT id, name FROM agents WHERE team_id = ${teamId} AND id IN (${sql.join(
          ids.map((i) => sql`${i}`),
          sql`, `,
        )})`,
      ),
    );
    return new Map(rows.map((r) => [Number(r.id), r.name]));
  });
}
