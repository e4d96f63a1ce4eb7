import "server-only";
import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";

export type StatsFilter = { waNumberId?: number; template?: string; sentGroup?: string; from?: string; to?: string };
export type StatsRow = { status: string; error_code: number; error_title: string; messages: number };

/**
 * The team's outbound counts by status and error from the message_stats rollup (migrations 0017
 * and 0020), never from `messages`: a year of one team's sends is a few thousand rollup rows, read
 * through the primary key (team, day…) or, for one sent_group, message_stats_team_group_idx. Days
 * are UTC dates, both ends included.
 */
export async function sumMessageStats(teamId: number, f: StatsFilter): Promise<StatsRow[]> {
  const db = await getDb();
  const rows = rowsOf<{ status: string; error_code: number | string; error_title: string; messages: number | string }>(
    await db.execute(sql`SELECT status, error_code, error_title, sum(messages) AS messages
      FROM message_stats
      WHERE team_id = ${teamId}
        ${f.from ? sql`AND day >= ${f.from}::date` : sql``}
        ${f.to ? sql`AND day <= ${f.to}::date` : sql``}
        ${f.waNumberId !== undefined ? sql`AND wa_number_id = ${f.waNumberId}` : sql``}
        ${f.template !== undefined ? sql`AND template_name = ${f.template}` : sql``}
        ${f.sentGroup !== undefined ? sql`AND sent_group = ${f.sentGroup}` : sql``}
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
