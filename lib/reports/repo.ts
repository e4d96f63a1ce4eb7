import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type Db, type DbOrTx, type Tx } from "@/db/client";
import type { ReportMetric } from "@/db/schema/reports";
import { ADVISORY_LOCKS } from "@/db/advisory-locks";

export type ReportFilter = { from: string; to: string; waNumberId?: number; labelId?: number; agentId?: number };
/** By day (null: the whole range) or by agent. */
export type ReportGroup = "day" | "agent";

type Num = number | string | null;
/**
 * One day, agent or the whole range (key null) with every figure: per time metric (`fr_` first
 * responses, `res_` resolutions) the sample count and, for the median and the 90th percentile, the
 * values (lib/reports/buckets.ts: their buckets' means) of the two samples percentile_cont would
 * interpolate between; the conversations opened; the messages in and out; for the agents report,
 * the agent's name.
 */
export type FigureRow = {
  key: Num;
  fr_n: Num;
  fr_p50_lo: Num;
  fr_p50_hi: Num;
  fr_p90_lo: Num;
  fr_p90_hi: Num;
  res_n: Num;
  res_p50_lo: Num;
  res_p50_hi: Num;
  res_p90_lo: Num;
  res_p90_hi: Num;
  opened_n: Num;
  messages_in: Num;
  messages_out: Num;
  agent_name?: string | null;
};
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

/**
 * Per key and metric, the sample count and the values at the ranks of the median and the p90. The
 * key stays a date or an integer until the end (sorting text compares by collation, several times
 * slower), counts are int4 and second sums float8 (exact far beyond any range's total) so that no
 * sum goes through numeric.
 */
function percentileValues(source: SQL, group: SQL): SQL {
  // upto: samples in this bucket and below it, so the sample of rank r (from 0) is in the first
  // bucket whose upto exceeds r; buckets do not overlap, so their means rise with them and the
  // first one's mean is the smallest. Ranks as percentile_cont takes them, in float8 like it.
  const at = (p: number, f: "floor" | "ceil") => sql.raw(`min(mean) FILTER (WHERE upto > ${f}(${p}::float8 * (total - 1)::float8))`);
  return sql`h AS (SELECT k, metric, bucket, sum(samples)::int4 AS n, sum(seconds) AS seconds FROM ${source} ${group}),
    c AS (SELECT k, metric, seconds / n AS mean, sum(n) OVER (PARTITION BY k, metric ORDER BY bucket) AS upto,
            sum(n) OVER (PARTITION BY k, metric) AS total
          FROM h),
    t AS (SELECT k, metric, max(total)::int4 AS n, ${at(0.5, "floor")} AS p50_lo, ${at(0.5, "ceil")} AS p50_hi,
            ${at(0.9, "floor")} AS p90_lo, ${at(0.9, "ceil")} AS p90_hi
          FROM c GROUP BY k, metric)`;
}

/**
 * Which level of report_histograms answers a report (db/schema/reports.ts): the filtered number or
 * 0 (every number); the filtered agent, every agent's own rows when grouping by agent, or -1 (every
 * agent). The fewest rows that hold the answer: the team's whole days when nothing is filtered.
 */
function histogramWhere(teamId: number, { filter: f, g }: { filter: ReportFilter; g: ReportGroup }): SQL {
  const agent = f.agentId !== undefined ? sql`agent_id = ${f.agentId}` : g === "agent" ? sql`agent_id >= 0` : sql`agent_id = -1`;
  return sql`team_id = ${teamId} AND day BETWEEN ${f.from}::date AND ${f.to}::date
    AND wa_number_id = ${f.waNumberId ?? 0} AND ${agent}`;
}

/**
 * The samples of first responses, resolutions and openings, bucketed. Without a label filter, from
 * report_histograms plus its deltas not folded yet (in the same statement, so a fold committing
 * meanwhile is seen whole or not at all). With one, the label's contacts' samples are bucketed as
 * they are read (the same buckets, so the same figures): a label is today's assignments, which no
 * per-day rollup can follow.
 */
function timeSource(teamId: number, { filter: f, g }: { filter: ReportFilter; g: ReportGroup }): SQL {
  const cols = sql`day, agent_id, metric COLLATE "C" AS metric, bucket, samples::int4 AS samples, seconds::float8 AS seconds`;
  return f.labelId === undefined
    ? sql`(SELECT ${cols} FROM report_histograms WHERE ${histogramWhere(teamId, { filter: f, g })}
      UNION ALL SELECT ${cols} FROM report_histogram_deltas WHERE ${histogramWhere(teamId, { filter: f, g })}) s`
    : sql`(SELECT day, agent_id, 'first_response' COLLATE "C" AS metric, report_seconds_bucket(seconds) AS bucket, 1 AS samples,
          seconds::float8 AS seconds
        FROM report_responses WHERE ${where(teamId, f)}
      UNION ALL SELECT day, agent_id, CASE WHEN kind = 'opened' THEN 'opened' ELSE 'resolution' END COLLATE "C",
        CASE WHEN kind = 'opened' THEN 0 ELSE report_seconds_bucket(seconds) END, 1, coalesce(seconds, 0)::float8
        FROM report_conversation_events WHERE ${where(teamId, f)}) s`;
}

/**
 * Messages in and out. Without a label filter, from report_message_days plus its deltas not folded
 * yet (a few rows per day; same statement, same snapshot); with one, from the per-customer counts
 * of the label's contacts.
 */
function messageSource(teamId: number, f: ReportFilter): SQL {
  return f.labelId === undefined
    ? sql`(SELECT day, agent_id, direction, messages FROM report_message_days WHERE ${where(teamId, f)}
      UNION ALL SELECT day, agent_id, direction, messages FROM report_message_deltas WHERE ${where(teamId, f)}) s`
    : sql`report_message_counts WHERE ${where(teamId, f)}`;
}

/** One metric's five columns of a FigureRow, picked out of the metric's row. */
const metricColumns = (prefix: string, metric: ReportMetric) =>
  sql.raw(
    ["n", "p50_lo", "p50_hi", "p90_lo", "p90_hi"].map((c) => `max(${c}) FILTER (WHERE metric = '${metric}') AS ${prefix}_${c}`).join(", "),
  );

/** The columns of a FigureRow that report_day_figures holds, in its order. */
const FIGURE_COLUMNS = sql.raw(
  "fr_n, fr_p50_lo, fr_p50_hi, fr_p90_lo, fr_p90_hi, res_n, res_p50_lo, res_p50_hi, res_p90_lo, res_p90_hi, opened_n",
);
const FIGURE_MAXES = sql.raw(
  ["fr", "res"]
    .flatMap((m) => ["n", "p50_lo", "p50_hi", "p90_lo", "p90_hi"].map((c) => `max(${m}_${c}) AS ${m}_${c}`))
    .concat("max(opened_n) AS opened_n")
    .join(", "),
);

/** Messages in and out per key (a day and the total: ROLLUP; or an agent), float8 so they arrive as numbers. */
function messageCounts(k: SQL, { teamId, filter: f, group }: { teamId: number; filter: ReportFilter; group: SQL }): SQL {
  return sql`mc AS (SELECT ${k} AS k, (sum(messages) FILTER (WHERE direction = 'INBOUND'))::float8 AS messages_in,
      (sum(messages) FILTER (WHERE direction = 'OUTBOUND'))::float8 AS messages_out
    FROM ${messageSource(teamId, f)} ${group})`;
}

/**
 * Every figure of a report in one statement: one row per day plus the total (key null), or one
 * row per agent with its name; in each the time metrics' percentile values, the openings and the
 * message counts, pivoted into columns (a 30-day summary is 31 rows). One round trip instead of
 * three (histograms, message counts, agents' names), and every figure from one snapshot.
 */
export async function reportFigures(
  db: DbOrTx,
  { teamId, filter: f, g }: { teamId: number; filter: ReportFilter; g: ReportGroup },
): Promise<FigureRow[]> {
  if (g === "day" && f.labelId === undefined) return summaryFigures(db, { teamId, filter: f });
  const byDay = g === "day";
  const [k, timeGroup, countGroup] = byDay
    ? [sql`day`, sql`GROUP BY GROUPING SETS ((k, metric, bucket), (metric, bucket))`, sql`GROUP BY ROLLUP (day)`]
    : [sql`agent_id`, sql`GROUP BY k, metric, bucket`, sql`GROUP BY agent_id`];
  const samples = sql`(SELECT ${k} AS k, metric, bucket, samples, seconds FROM ${timeSource(teamId, { filter: f, g })}) x`;
  const key = byDay ? sql`to_char(k, 'YYYY-MM-DD')` : sql`k`;
  const name = byDay ? sql`` : sql`, (SELECT name FROM agents WHERE team_id = ${teamId} AND id = k) AS agent_name`;
  return rowsOf<FigureRow>(
    await db.execute(sql`WITH ${percentileValues(samples, timeGroup)}, ${messageCounts(k, { teamId, filter: f, group: countGroup })},
      u AS (SELECT k, metric, n, p50_lo, p50_hi, p90_lo, p90_hi, NULL::float8 AS messages_in, NULL::float8 AS messages_out FROM t
        UNION ALL SELECT k, NULL, NULL, NULL, NULL, NULL, NULL, messages_in, messages_out FROM mc)
    SELECT ${key} AS key, ${metricColumns("fr", "first_response")}, ${metricColumns("res", "resolution")},
      max(n) FILTER (WHERE metric = 'opened') AS opened_n, coalesce(max(messages_in), 0) AS messages_in,
      coalesce(max(messages_out), 0) AS messages_out ${name}
    FROM u GROUP BY k`),
  );
}

/**
 * The summary without a label filter (the filters by number and agent are levels of the rollups):
 * each day from its one report_day_figures row (db/functions/report_day_figures.sql), except the
 * days with histogram deltas not folded yet (dd: usually none, or today), which are read from
 * their buckets plus those deltas as before; the range's total always from the buckets (a median
 * over the range is not made of the days' medians). The per-day medians no longer take a grouping
 * set, window partitions and FILTERs per day over every bucket row.
 */
async function summaryFigures(db: DbOrTx, { teamId, filter: f }: { teamId: number; filter: ReportFilter }): Promise<FigureRow[]> {
  const hw = histogramWhere(teamId, { filter: f, g: "day" });
  const cols = sql`day, metric COLLATE "C" AS metric, bucket, samples::int4 AS samples, seconds::float8 AS seconds`;
  // nd: the unfolded deltas, read once (for dd, the days they fall on, and for the buckets).
  // The total (k null) and each day with unfolded deltas (k: the day), from the same bucket rows.
  const samples = sql`(SELECT NULL::date AS k, metric, bucket, samples, seconds FROM s
    UNION ALL SELECT day, metric, bucket, samples, seconds FROM s WHERE day IN (SELECT day FROM dd)) x`;
  return rowsOf<FigureRow>(
    await db.execute(sql`WITH nd AS MATERIALIZED (SELECT ${cols} FROM report_histogram_deltas WHERE ${hw}),
      dd AS (SELECT DISTINCT day FROM nd),
      s AS (SELECT ${cols} FROM report_histograms WHERE ${hw} UNION ALL SELECT * FROM nd),
      ${percentileValues(samples, sql`GROUP BY k, metric, bucket`)},
      ${messageCounts(sql`day`, { teamId, filter: f, group: sql`GROUP BY ROLLUP (day)` })},
      u AS (SELECT k, ${metricColumns("fr", "first_response")}, ${metricColumns("res", "resolution")},
          max(n) FILTER (WHERE metric = 'opened') AS opened_n, NULL::float8 AS messages_in, NULL::float8 AS messages_out
        FROM t GROUP BY k
        UNION ALL SELECT day, ${FIGURE_COLUMNS}, NULL, NULL FROM report_day_figures WHERE ${hw} AND day NOT IN (SELECT day FROM dd)
        UNION ALL SELECT k, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, messages_in, messages_out FROM mc)
    SELECT to_char(k, 'YYYY-MM-DD') AS key, ${FIGURE_MAXES}, coalesce(max(messages_in), 0) AS messages_in,
      coalesce(max(messages_out), 0) AS messages_out
    FROM u GROUP BY k`),
  );
}

/** Deltas folded per run at most: one run stays a short transaction however far behind it is. */
const FOLD_BATCH = 50_000;
const FOLD_LOCK = ADVISORY_LOCKS.reportMessagesFold;

/**
 * Moves up to FOLD_BATCH report_message_deltas into report_message_days, summed per key, in the
 * caller's transaction (lib/reports/fold.ts opens it, as for message_stats); returns how many it
 * moved, -1 when another process was folding. One process at a time (a transaction-scoped
 * try-lock, hence a `Tx`), and its key-ordered upserts are the only writes to report_message_days,
 * so writers never wait for it.
 */
export async function foldMessageDeltas(db: Tx): Promise<number> {
  const [lock] = rowsOf<{ ok: boolean }>(await db.execute(sql`SELECT pg_try_advisory_xact_lock(${FOLD_LOCK}) AS ok`));
  if (!lock?.ok) return -1;
  const res = await db.execute(sql`
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
}

/** Exported for the tests that hold it to see deltas not folded yet on a shared database. */
export const HISTOGRAM_FOLD_LOCK = ADVISORY_LOCKS.reportHistogramsFold;

/**
 * Moves up to FOLD_BATCH report_histogram_deltas into report_histograms, as
 * foldMessageDeltas does for the message counts (its own try-lock, so the two folds never
 * wait for each other; a `Tx`, as the try-lock is transaction-scoped); returns how many it moved,
 * -1 when another process was folding.
 */
export async function foldHistogramDeltas(db: Tx): Promise<number> {
  const [lock] = rowsOf<{ ok: boolean }>(await db.execute(sql`SELECT pg_try_advisory_xact_lock(${HISTOGRAM_FOLD_LOCK}) AS ok`));
  if (!lock?.ok) return -1;
  const res = await db.execute(sql`
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
}

/**
 * Vacuums a deltas table a fold just emptied (lib/reports/fold.ts says why), outside any
 * transaction. SKIP_LOCKED: a vacuum already running elsewhere is enough; TRUNCATE false: giving
 * the emptied pages back would take a lock that writers of deltas wait for, and the next deltas
 * reuse them anyway; INDEX_CLEANUP on: the index entries of the dead rows are the point.
 */
export async function vacuumDeltas(db: Db, deltas: ReportDeltas): Promise<void> {
  await db.execute(sql`VACUUM (SKIP_LOCKED, INDEX_CLEANUP ON, TRUNCATE false) ${DELTAS_TABLES[deltas]}`);
}

/** The reports' two deltas tables, by the rollup they feed. */
export type ReportDeltas = "messages" | "histograms";
const DELTAS_TABLES: Record<ReportDeltas, SQL> = {
  messages: sql`report_message_deltas`,
  histograms: sql`report_histogram_deltas`,
};
