import "server-only";
import { and, asc, count, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { campaigns } from "@/db/schema";

export type CampaignRow = typeof campaigns.$inferSelect;

export async function listCampaignRows(db: DbOrTx, teamId: number, limit: number, offset: number) {
  const where = eq(campaigns.teamId, teamId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(campaigns).where(where).orderBy(asc(campaigns.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(campaigns).where(where),
  ]);
  return { rows, total };
}

export async function findCampaignRow(db: DbOrTx, teamId: number, id: number): Promise<CampaignRow | undefined> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.teamId, teamId), eq(campaigns.id, id)))
    .limit(1);
  return row;
}

export async function insertCampaign(db: DbOrTx, values: typeof campaigns.$inferInsert): Promise<CampaignRow> {
  const [row] = await db.insert(campaigns).values(values).returning();
  return row;
}
