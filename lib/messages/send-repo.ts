import { and, eq, sql } from "drizzle-orm";
import type { PgInsertValue } from "drizzle-orm/pg-core";
import { getDb, rowsOf, type DbOrTx } from "@/db/client";
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
 * The team's contact for a number, created if new, in one statement: the insert and, when the
 * number is already a contact, the read of that row. The read sees the statement's snapshot, so
 * when a concurrent send created the same contact after it began, the insert waits for that
 * send, inserts nothing, and the read finds nothing yet: then the committed row is read again.
 */
export async function findOrCreateContact(tx: DbOrTx, teamId: number, customerNumber: string) {
  const [row] = rowsOf<ContactRow>(
    await tx.execute(sql`
      WITH ins AS (
        INSERT INTO ${contacts} (team_id, customer_number) VALUES (${teamId}, ${customerNumber})
        ON CONFLICT (team_id, customer_number) DO NOTHING
        RETURNING id, customer_number, customer_id)
      SELECT id, customer_number, customer_id FROM ins
      UNION ALL
      SELECT id, customer_number, customer_id FROM ${contacts} WHERE team_id = ${teamId} AND customer_number = ${customerNumber}
      LIMIT 1`),
  );
  if (row) return { id: Number(row.id), customerNumber: row.customer_number, customerId: row.customer_id };
  const [found] = await tx
    .select({ id: contacts.id, customerNumber: contacts.customerNumber, customerId: contacts.customerId })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), eq(contacts.customerNumber, customerNumber)))
    .limit(1);
  return found;
}

type ContactRow = { id: number | string; customer_number: string | null; customer_id: string | null };

export async function insertMessage(tx: DbOrTx, values: PgInsertValue<typeof messages>) {
  const [row] = await tx.insert(messages).values(values).returning({ id: messages.id, updateId: messages.updateId });
  return row;
}
