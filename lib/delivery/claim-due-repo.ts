import "server-only";
import { sql, type SQL } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import type { readReceipts, webhookDeliveries } from "@/db/schema";

/** `AND <column> IN (…)` for a worker that serves only some teams; nothing when it serves all. */
export function inTeams(column: SQL, teamIds?: number[]): SQL {
  if (!teamIds?.length) return sql``;
  return sql`AND ${column} IN (${sql.join(
    teamIds.map((t) => sql`${t}`),
    sql`, `,
  )})`;
}

/**
 * Claims up to `limit` due rows of a job table with a lease, like messages (repo.ts
 * claimMessages): rows still pending whose next_attempt_at has come and whose lease
 * (locked_until) is free or ran out, earliest due first, skipping those another worker is
 * claiming (FOR UPDATE SKIP LOCKED). `attempts` is bumped by the claim and fences every later
 * write, so a worker whose lease ran out cannot settle a row another worker took. `pending` is
 * written as a literal so that the table's partial queue index (WHERE status = …) applies.
 * Returns the `returning` columns (of alias `j`) of the claimed rows.
 */
export async function claimDue<Row>(
  db: DbOrTx,
  q: {
    table: typeof readReceipts | typeof webhookDeliveries;
    pending: "PENDING" | "pending";
    limit: number;
    leaseMs: number;
    teamIds?: number[];
    returning: SQL;
  },
): Promise<Row[]> {
  const res = await db.execute(sql`
    UPDATE ${q.table} j
    SET locked_until = now() + ${q.leaseMs} * interval '1 millisecond', attempts = j.attempts + 1
    WHERE j.id IN (
      SELECT id FROM ${q.table}
      WHERE status = ${sql.raw(`'${q.pending}'`)} AND next_attempt_at <= now() AND (locked_until IS NULL OR locked_until < now())
        ${inTeams(sql`team_id`, q.teamIds)}
      ORDER BY next_attempt_at
      LIMIT ${q.limit}
      FOR UPDATE SKIP LOCKED)
    RETURNING ${q.returning}`);
  return rowsOf<Row>(res);
}
