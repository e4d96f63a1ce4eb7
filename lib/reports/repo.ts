import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { getDb, withReadDb, rowsOf } from "@/db/client";

export type ReportFilter = { from: string; to: string; waNumberId?: number; labelId?: number; agentId?: number };
/** By day (null: the whole range) or by agent. */
export type ReportGroup = "day" | "agent";

type Num = number | string | null;
export type ResponseRow = { key: Num; n: Num; p50: Num; p90: Num };
export type EventRow = { key: Num; opened: Num; resolved: Num; p50: Num; p90: Num };
export type CountRow = { key: Num; messages_in: Num; messages_out: Num };

/**
 * Every read goes through the (team_id, day) index or primary key of a rollup (db/schema/reports.ts),
 * never `messages`. The label filter is today's assignments (contact_labels' primary key answers
 * each probe), so a report by label follows relabelling without rewriting the rollups.
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

/** Per day plus a total row (key null) with GROUP BY ROLLUP: the total's percentiles are over all samples. */
function groupBy(g: ReportGroup): { key: SQL; group: SQL } {
  return g === "day"
    ? { key: sql`to_char(day, 'YYYY-MM-DD')`, group: sql`GROUP BY ROLLUP (day)` }
    : { key: sql`agent_id`, group: sql`GROUP BY agent_id` };
}

export async function responseFigures(teamId: number, f: ReportFilter, g: ReportGroup): Promise<ResponseRow[]> {
  return withReadDb(teamId, async (db) => {
    const { key, group } = groupBy(g);
    return rowsOf<ResponseRow>(
      await db.execute(sql`SELECT ${key} AS key, count(*) AS n,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS p50, percentile_cont(0.9) WITHIN GROUP (ORDER BY seconds) AS p90
      FROM report_responses WHERE ${where(teamId, f)} ${group}`),
    );
  });
}

export async function conversationFigures(teamId: number, f: ReportFilter, g: ReportGroup): Promise<EventRow[]> {
  return withReadDb(teamId, async (db) => {
    const { key, group } = groupBy(g);
    // `seconds` is null on opened rows, which the percentiles skip.
    return rowsOf<EventRow>(
      await db.execute(sql`SELECT ${key} AS key, count(*) FILTER (WHERE kind = 'opened') AS opened,
        count(*) FILTER (WHERE kind = 'resolved') AS resolved,
        percentile_cont(0.5) WITHIN GROUP (ORDER BY seconds) AS p50, percentile_cont(0.9) WITHIN GROUP (ORDER BY seconds) AS p90
      FROM report_conversation_events WHERE ${where(teamId, f)} ${group}`),
    );
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
const FOLD_LOCK = 727_276;

/**
 * Moves up to FOLD_BATCH report_message_deltas into report_message_days, summed per key, in one
 * transaction (as foldMessageStatsDeltas does for message_stats); returns how many it moved, -1
 * when another process was folding. One process at a time (a transaction-scoped try-lock), and its
 * key-ordered upserts are the only writes to report_message_days, so writers never wait for it.
 */
export async function foldReportMessageDeltas(): Promise<number> {
  const db = await getDb();
  return db.transaction(async (tx) => {
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
