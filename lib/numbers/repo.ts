import "server-only";
import { and, asc, count, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { waNumbers } from "@/db/schema";

export async function listNumbers(db: DbOrTx, { teamId, limit, offset }: { teamId: number; limit: number; offset: number }) {
  const where = eq(waNumbers.teamId, teamId);
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(waNumbers).where(where).orderBy(asc(waNumbers.id)).limit(limit).offset(offset),
    db.select({ total: count() }).from(waNumbers).where(where),
  ]);
  return { rows, total };
}

/** A team's number by its digits; another team's number answers like a missing one. */
export async function findNumber(db: DbOrTx, { teamId, number }: { teamId: number; number: string }) {
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

/** Every number of the team, oldest first (the settings page: a team has a handful). */
export async function listTeamNumbers(db: DbOrTx, teamId: number) {
  return db.select().from(waNumbers).where(eq(waNumbers.teamId, teamId)).orderBy(asc(waNumbers.id)).limit(1000);
}

/** One of the team's numbers by id; another team's answers like a missing one. */
export async function findNumberById(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  const [row] = await db
    .select()
    .from(waNumbers)
    .where(and(eq(waNumbers.teamId, teamId), eq(waNumbers.id, id)))
    .limit(1);
  return row;
}

/**
 * One of the team's numbers, locked for a change until the caller's transaction ends. FOR NO KEY
 * UPDATE, not FOR UPDATE: every message INSERT takes KEY SHARE on its number, which this must not block.
 */
export async function lockNumberById(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  const [row] = await db
    .select()
    .from(waNumbers)
    .where(and(eq(waNumbers.teamId, teamId), eq(waNumbers.id, id)))
    .limit(1)
    .for("no key update");
  return row;
}

export type NumberChanges = Partial<
  Pick<
    typeof waNumbers.$inferInsert,
    | "displayName"
    | "messagesPerSecond"
    | "disabledAt"
    | "credentials"
    | "verifiedName"
    | "verifiedAt"
    | "qualityRating"
    | "messagingLimitTier"
    | "healthUpdatedAt"
  >
>;

export async function updateNumber(db: DbOrTx, { teamId, id, set }: { teamId: number; id: number; set: NumberChanges }) {
  const [row] = await db
    .update(waNumbers)
    .set(set)
    .where(and(eq(waNumbers.teamId, teamId), eq(waNumbers.id, id)))
    .returning();
  return row;
}

/** Which of a new number's unique keys another number (of any team) already holds. */
export async function numberKeysTaken(db: DbOrTx, { number, phoneNumberId }: { number: string; phoneNumberId: string | null }) {
  const [byNumber] = await db.select({ id: waNumbers.id }).from(waNumbers).where(eq(waNumbers.number, number)).limit(1);
  const [byPhoneId] = phoneNumberId
    ? await db.select({ id: waNumbers.id }).from(waNumbers).where(eq(waNumbers.phoneNumberId, phoneNumberId)).limit(1)
    : [];
  return { number: !!byNumber, phoneNumberId: !!byPhoneId };
}

/** The team's sandbox number, if it has one. */
export async function findTeamSandboxNumber(db: DbOrTx, teamId: number) {
  const [row] = await db
    .select({ id: waNumbers.id })
    .from(waNumbers)
    .where(and(eq(waNumbers.teamId, teamId), eq(waNumbers.provider, "sandbox")))
    .limit(1);
  return row;
}
