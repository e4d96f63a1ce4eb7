import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { CONVERSATION, IS_CANCELLED, REPLIED, ids } from "./repo-fragments";

/** The SQL of a broadcast's counts: per status, replied, failures by code. Every query filters by team. */

export type StatusCount = { broadcast_id: number; status: string; cancelled: boolean; n: number };

/** Messages per broadcast, status and cancelled-or-not (one index range per broadcast). */
export async function statusCounts(
  db: DbOrTx,
  { teamId, broadcastIds }: { teamId: number; broadcastIds: number[] },
): Promise<StatusCount[]> {
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

export async function repliedCounts(
  db: DbOrTx,
  { teamId, broadcastIds }: { teamId: number; broadcastIds: number[] },
): Promise<Map<number, number>> {
  if (!broadcastIds.length) return new Map();
  const res = await db.execute(sql`
    SELECT m.broadcast_id, count(*)::int AS n
    FROM messages m JOIN broadcasts b ON b.team_id = m.team_id AND b.id = m.broadcast_id ${CONVERSATION}
    WHERE m.team_id = ${teamId} AND m.broadcast_id IN (${ids(broadcastIds)}) AND ${REPLIED}
    GROUP BY 1`);
  return new Map(rowsOf<{ broadcast_id: number; n: number }>(res).map((r) => [Number(r.broadcast_id), Number(r.n)]));
}

export type FailureCount = { broadcast_id: number; code: number | null; title: string; count: number };

export async function failureCounts(
  db: DbOrTx,
  { teamId, broadcastIds }: { teamId: number; broadcastIds: number[] },
): Promise<FailureCount[]> {
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
