import "server-only";
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { bots } from "@/db/schema";

export type BotRow = typeof bots.$inferSelect;

export async function listBotRows(db: DbOrTx, teamId: number, limit: number, offset: number) {
  const where = eq(bots.teamId, teamId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(bots).where(where).orderBy(asc(bots.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(bots).where(where),
  ]);
  return { rows, total };
}

export async function findBotRow(db: DbOrTx, teamId: number, id: number): Promise<BotRow | undefined> {
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
 * (`tx`): the lock and the flag's move last until it commits.
 */
export async function insertBot(tx: Tx, values: typeof bots.$inferInsert): Promise<BotRow> {
  if (values.isDefault) {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('bots.default'), ${values.teamId}::int)`);
    await tx
      .update(bots)
      .set({ isDefault: false })
      .where(and(eq(bots.teamId, values.teamId), eq(bots.isDefault, true)));
  }
  const [row] = await tx.insert(bots).values(values).returning();
  return row;
}
