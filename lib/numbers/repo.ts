import "server-only";
import { and, asc, count, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { waNumbers } from "@/db/schema";

export async function listNumbers(db: DbOrTx, teamId: number, limit: number, offset: number) {
  const where = eq(waNumbers.teamId, teamId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(waNumbers).where(where).orderBy(asc(waNumbers.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(waNumbers).where(where),
  ]);
  return { rows, total };
}

/** A team's number by its digits; another team's number answers like a missing one. */
export async function findNumber(db: DbOrTx, teamId: number, number: string) {
  const [row] = await db
    .select()
    .from(waNumbers)
    .where(and(eq(waNumbers.teamId, teamId), eq(waNumbers.number, number)))
    .limit(1);
  return row;
}

export async function insertNumber(db: DbOrTx, values: typeof waNumbers.$inferInsert) {
  const [row] = await db.insert(waNumbers).values(values).returning();
  return row;
}
