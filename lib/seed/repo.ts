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
  teams,
  templates,
  waNumbers,
} from "@/db/schema";

// Serializes concurrent seeds (two replicas starting at once) on both drivers.
const SEED_LOCK = ADVISORY_LOCKS.seed;

/** Takes the seed's advisory lock for the rest of the caller's transaction. */
export async function lockSeed(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SEED_LOCK})`);
}

/** The team owning `number` (numbers are unique across the service). */
export async function teamOfNumber(db: DbOrTx, number: string): Promise<number | undefined> {
  const [row] = await db.select({ teamId: waNumbers.teamId }).from(waNumbers).where(eq(waNumbers.number, number)).limit(1);
  return row?.teamId;
}

/** Stores a token's hash for the team unless that hash is stored already. */
export async function insertTokenOnce(tx: Tx, values: typeof apiTokens.$inferInsert): Promise<void> {
  const [stored] = await tx.select({ id: apiTokens.id }).from(apiTokens).where(eq(apiTokens.tokenHash, values.tokenHash)).limit(1);
  if (!stored) await tx.insert(apiTokens).values(values);
}

export async function insertTeam(tx: Tx, name: string): Promise<number> {
  const [team] = await tx.insert(teams).values({ name }).returning({ id: teams.id });
  return team.id;
}

export async function insertNumber(tx: Tx, values: typeof waNumbers.$inferInsert): Promise<number> {
  const [row] = await tx.insert(waNumbers).values(values).returning({ id: waNumbers.id });
  return row.id;
}

export async function insertMedia(tx: Tx, values: typeof media.$inferInsert): Promise<void> {
  await tx.insert(media).values(values);
}

export async function insertTemplate(tx: Tx, values: typeof templates.$inferInsert) {
  const [row] = await tx.insert(templates).values(values).returning();
  return row;
}

export async function insertLabels(tx: Tx, rows: (typeof labels.$inferInsert)[]): Promise<number[]> {
  return (await tx.insert(labels).values(rows).returning({ id: labels.id })).map((r) => r.id);
}

export async function insertContacts(tx: Tx, rows: (typeof contacts.$inferInsert)[]): Promise<number[]> {
  return (await tx.insert(contacts).values(rows).returning({ id: contacts.id })).map((r) => r.id);
}

export async function insertAssignments(tx: Tx, rows: (typeof contactLabels.$inferInsert)[]): Promise<void> {
  if (rows.length) await tx.insert(contactLabels).values(rows);
}

export async function insertBot(tx: Tx, values: typeof bots.$inferInsert): Promise<number> {
  const [row] = await tx.insert(bots).values(values).returning({ id: bots.id });
  return row.id;
}

export async function insertCampaign(tx: Tx, values: typeof campaigns.$inferInsert): Promise<number> {
  const [row] = await tx.insert(campaigns).values(values).returning({ id: campaigns.id });
  return row.id;
}

export async function insertAgent(tx: Tx, values: typeof agents.$inferInsert) {
  const [row] = await tx.insert(agents).values(values).returning({ id: agents.id, name: agents.name });
  return row;
}

export async function insertMessages(tx: Tx, rows: (typeof messages.$inferInsert)[]): Promise<void> {
  if (rows.length) await tx.insert(messages).values(rows);
}
