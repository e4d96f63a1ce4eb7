import "server-only";
import { and, asc, count, eq } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { campaigns, messages } from "@/db/schema";

export type CampaignRow = typeof campaigns.$inferSelect;

export async function listCampaignRows(db: DbOrTx, { teamId, limit, offset }: { teamId: number; limit: number; offset: number }) {
  const where = eq(campaigns.teamId, teamId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(campaigns).where(where).orderBy(asc(campaigns.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(campaigns).where(where),
  ]);
  return { rows, total };
}

export async function findCampaignRow(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<CampaignRow | undefined> {
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

/** The team's campaign, locked for a change (FOR UPDATE) so two edits of it apply one after the other. */
export async function lockCampaignRow(db: Tx, { teamId, id }: { teamId: number; id: number }): Promise<CampaignRow | undefined> {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.teamId, teamId), eq(campaigns.id, id)))
    .for("update")
    .limit(1);
  return row;
}

export async function updateCampaignRow(
  db: DbOrTx,
  { teamId, id, patch }: { teamId: number; id: number; patch: Partial<Pick<CampaignRow, "name" | "webhookUrl" | "webhookSecret">> },
): Promise<CampaignRow> {
  const [row] = await db
    .update(campaigns)
    .set(patch)
    .where(and(eq(campaigns.teamId, teamId), eq(campaigns.id, id)))
    .returning();
  return row;
}

/** Whether any message names this campaign: its foreign key keeps such a campaign from being deleted. */
export async function campaignHasMessages(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<boolean> {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.teamId, teamId), eq(messages.campaignId, id)))
    .limit(1);
  return !!row;
}

export async function deleteCampaignRow(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<void> {
  await db.delete(campaigns).where(and(eq(campaigns.teamId, teamId), eq(campaigns.id, id)));
}
