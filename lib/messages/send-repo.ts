import "server-only";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { bots, campaigns } from "@/db/schema";

const INT4_MAX = 2147483647;

/** Ids outside int4 cannot exist, and must not reach Postgres as an out-of-range error. */
function inRange(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= INT4_MAX;
}

export async function botExists(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<boolean> {
  if (!inRange(id)) return false;
  const rows = await db
    .select({ id: bots.id })
    .from(bots)
    .where(and(eq(bots.teamId, teamId), eq(bots.id, id)))
    .limit(1);
  return rows.length > 0;
}

export async function campaignExists(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<boolean> {
  if (!inRange(id)) return false;
  const rows = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.teamId, teamId), eq(campaigns.id, id)))
    .limit(1);
  return rows.length > 0;
}
