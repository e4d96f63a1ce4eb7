import "server-only";
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { bots, messages } from "@/db/schema";

export type BotRow = typeof bots.$inferSelect;

export async function listBotRows(db: DbOrTx, { teamId, limit, offset }: { teamId: number; limit: number; offset: number }) {
  const where = eq(bots.teamId, teamId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(bots).where(where).orderBy(asc(bots.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(bots).where(where),
  ]);
  return { rows, total };
}

export async function findBotRow(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<BotRow | undefined> {
  const [row] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.teamId, teamId), eq(bots.id, id)))
    .limit(1);
  return row;
}

export async function findDefaultBotRow(db: DbOrTx, teamId: number): Promise<BotRow | undefined> {
  const [row] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.teamId, teamId), eq(bots.isDefault, true)))
    .orderBy(asc(bots.id))
    .limit(1);
  return row;
}

/**
 * A new default bot replaces the previous one: a team has at most one default. The advisory lock
 * keeps two concurrent "new default" inserts from both keeping their flag. Needs a transaction
 * (`Tx`): the lock and the flag's move last until it commits.
 */
export async function insertBot(db: Tx, values: typeof bots.$inferInsert): Promise<BotRow> {
  if (values.isDefault) await clearDefault(db, values.teamId);
  const [row] = await db.insert(bots).values(values).returning();
  return row;
}

async function clearDefault(db: Tx, teamId: number) {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext('bots.default'), ${teamId}::int)`);
  await db
    .update(bots)
    .set({ isDefault: false })
    .where(and(eq(bots.teamId, teamId), eq(bots.isDefault, true)));
}

/** The team's bot, locked for a change (FOR UPDATE) so two edits of it apply one after the other. */
export async function lockBotRow(db: Tx, { teamId, id }: { teamId: number; id: number }): Promise<BotRow | undefined> {
  const [row] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.teamId, teamId), eq(bots.id, id)))
    .for("update")
    .limit(1);
  return row;
}

/** Changes a bot; becoming the default takes the flag from the previous one, as insertBot does. */
export async function updateBotRow(
  db: Tx,
  {
    teamId,
    id,
    patch,
  }: { teamId: number; id: number; patch: Partial<Pick<BotRow, "name" | "isDefault" | "webhookUrl" | "webhookSecret">> },
): Promise<BotRow> {
  if (patch.isDefault) await clearDefault(db, teamId);
  const [row] = await db
    .update(bots)
    .set(patch)
    .where(and(eq(bots.teamId, teamId), eq(bots.id, id)))
    .returning();
  return row;
}

/** Whether any message names this bot: its foreign key keeps such a bot from being deleted. */
export async function botHasMessages(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<boolean> {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.teamId, teamId), eq(messages.botId, id)))
    .limit(1);
  return !!row;
}

export async function deleteBotRow(db: DbOrTx, { teamId, id }: { teamId: number; id: number }): Promise<void> {
  await db.delete(bots).where(and(eq(bots.teamId, teamId), eq(bots.id, id)));
}
