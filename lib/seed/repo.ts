import "server-only";
import { eq, sql } from "drizzle-orm";
import type { DbOrTx, Tx } from "@/db/client";
import { ADVISORY_LOCKS } from "@/db/advisory-locks";
import {
  agents,
  apiTokens,
  bots,
  campaigns,
  contactLabels,
  contacts,
  labels,
  media,
  messages,
  savedReplies,
  teams,
  templates,
  waNumbers,
} from "@/db/schema";

// Serializes concurrent seeds (two replicas starting at once) on both drivers.
const SEED_LOCK = ADVISORY_LOCKS.seed;

/** Takes the seed's advisory lock for the rest of the caller's transaction (hence a `Tx`). */
export async function lockSeed(db: Tx): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
}

/** The team owning `number` (numbers are unique across the service). */
export async function teamOfNumber(db: DbOrTx, number: string): Promise<number | undefined> {
  const [row] = await db.select({ teamId: waNumbers.teamId }).from(waNumbers).where(eq(waNumbers.number, number)).limit(1);
  return row?.teamId;
}

/** Stores a token's hash for the team unless that hash is stored already. */
export async function insertTokenOnce(db: DbOrTx, values: typeof apiTokens.$inferInsert): Promise<void> {
  const [stored] = await db.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.tokenHash, values.tokenHash)).limit(1);
  if (!stored) await db.insert(apiTokens).values(values);
}

export async function insertTeam(db: DbOrTx, values: typeof teams.$inferInsert): Promise<number> {
  const [team] = await db.insert(teams).values(values).returning({ id: teams.id });
  return team.id;
}

export async function insertNumber(db: DbOrTx, values: typeof waNumbers.$inferInsert): Promise<number> {
  const [row] = await db.insert(waNumbers).values(values).returning({ id: waNumbers.id });
  return row.id;
}

export async function insertMedia(db: DbOrTx, values: typeof media.$inferInsert): Promise<void> {
  await db.insert(media).values(values);
}

export async function insertTemplate(db: DbOrTx, values: typeof templates.$inferInsert) {
  const [row] = await db.insert(templates).values(values).returning();
  return row;
}

export async function insertLabels(db: DbOrTx, rows: (typeof labels.$inferInsert)[]): Promise<number[]> {
  return (await db.insert(labels).values(rows).returning({ id: labels.id })).map((r) => r.id);
}

export async function insertContacts(db: DbOrTx, rows: (typeof contacts.$inferInsert)[]): Promise<number[]> {
  return (await db.insert(contacts).values(rows).returning({ id: contacts.id })).map((r) => r.id);
}

export async function insertAssignments(db: DbOrTx, rows: (typeof contactLabels.$inferInsert)[]): Promise<void> {
  if (rows.length) await db.insert(contactLabels).values(rows);
}

export async function insertBot(db: DbOrTx, values: typeof bots.$inferInsert): Promise<number> {
  const [row] = await db.insert(bots).values(values).returning({ id: bots.id });
  return row.id;
}

export async function insertCampaign(db: DbOrTx, values: typeof campaigns.$inferInsert): Promise<number> {
  const [row] = await db.insert(campaigns).values(values).returning({ id: campaigns.id });
  return row.id;
}

export async function insertAgent(db: DbOrTx, values: typeof agents.$inferInsert) {
  const [row] = await db.insert(agents).values(values).returning({ id: agents.id, name: agents.name });
  return row;
}

export async function insertMessages(db: DbOrTx, rows: (typeof messages.$inferInsert)[]): Promise<void> {
  if (rows.length) await db.insert(messages).values(rows);
}

export async function insertSavedReplies(db: DbOrTx, rows: (typeof savedReplies.$inferInsert)[]): Promise<void> {
  if (rows.length) await db.insert(savedReplies).values(rows);
}
