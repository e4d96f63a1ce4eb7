import { and, eq } from "drizzle-orm";
import type { PgInsertValue } from "drizzle-orm/pg-core";
import { getDb, type DbOrTx } from "@/db/client";
import { bots, campaigns, contacts, messages } from "@/db/schema";

const INT4_MAX = 2147483647;

/** Ids outside int4 cannot exist, and must not reach Postgres as an out-of-range error. */
function inRange(id: number): boolean {
  return Number.isSafeInteger(id) && id >= 1 && id <= INT4_MAX;
}

export async function botExists(teamId: number, id: number): Promise<boolean> {
  if (!inRange(id)) return false;
  const db = await getDb();
  const rows = await db.select({ id: bots.id }).from(bots).where(and(eq(bots.teamId, teamId), eq(bots.id, id))).limit(1);
  return rows.length > 0;
}

export async function campaignExists(teamId: number, id: number): Promise<boolean> {
  if (!inRange(id)) return false;
  const db = await getDb();
  const rows = await db
    .select({ id: campaigns.id })
    .from(campaigns)
    .where(and(eq(campaigns.teamId, teamId), eq(campaigns.id, id)))
    .limit(1);
  return rows.length > 0;
}

/**
 * The team's contact for a number, created if new. Two sends to a new number at once both land
 * on one row: the loser of the unique (team_id, customer_number) race inserts nothing and reads
 * the winner's row, which is committed by then (the insert waited for it).
 */
export async function findOrCreateContact(tx: DbOrTx, teamId: number, customerNumber: string) {
  const cols = { id: contacts.id, customerNumber: contacts.customerNumber, customerId: contacts.customerId };
  const [created] = await tx
    .insert(contacts)
    .values({ teamId, customerNumber })
    .onConflictDoNothing({ target: [contacts.teamId, contacts.customerNumber] })
    .returning(cols);
  if (created) return created;
  const [found] = await tx
    .select(cols)
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), eq(contacts.customerNumber, customerNumber)))
    .limit(1);
  return found;
}

export async function insertMessage(tx: DbOrTx, values: PgInsertValue<typeof messages>) {
  const [row] = await tx.insert(messages).values(values).returning({ id: messages.id, updateId: messages.updateId });
  return row;
}
