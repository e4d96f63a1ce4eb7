import "server-only";
import { and, eq, ne, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { contacts, messages } from "@/db/schema";
import { upsertContacts } from "@/lib/contacts/repo";

export async function inboundExists(tx: DbOrTx, waNumberId: number, providerMessageId: string) {
  const [row] = await tx
    .select({ id: messages.id })
    .from(messages)
    .where(and(eq(messages.waNumberId, waNumberId), eq(messages.providerMessageId, providerMessageId)))
    .limit(1);
  return Boolean(row);
}

/**
 * The customer's contact, created or refreshed: found by number, else by customer_id; the
 * profile name and a missing customer_id/number are filled in (lib/contacts/repo.ts upsertContacts).
 */
export async function upsertContact(
  tx: DbOrTx,
  teamId: number,
  c: { number: string | null; customerId: string | null; name: string | null },
) {
  const [row] = await upsertContacts(tx, teamId, [c], { refresh: true });
  return row;
}

/**
 * user_changed_number: the contact now answers at the new number. When the team already has a
 * contact at that number the two are not merged (their histories stay apart) and false is returned.
 */
export async function moveContactNumber(tx: DbOrTx, teamId: number, contactId: number, oldWaId: string | null, newWaId: string) {
  const [clash] = await tx
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), eq(contacts.customerNumber, newWaId), ne(contacts.id, contactId)))
    .limit(1);
  if (clash) return false;
  await tx
    .update(contacts)
    .set({
      customerNumber: newWaId,
      customerId: oldWaId
        ? sql`CASE WHEN ${contacts.customerId} = ${oldWaId} THEN ${newWaId} ELSE ${contacts.customerId} END`
        : contacts.customerId,
      updatedAt: sql`now()`,
    })
    .where(and(eq(contacts.teamId, teamId), eq(contacts.id, contactId)));
  return true;
}

export async function insertInbound(tx: DbOrTx, values: typeof messages.$inferInsert) {
  const [row] = await tx.insert(messages).values(values).onConflictDoNothing().returning();
  return row;
}
