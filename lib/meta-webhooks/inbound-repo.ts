import "server-only";
import { and, eq, ne, sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { contacts, messageProviderIds, messages } from "@/db/schema";
import { upsertContacts } from "@/lib/contacts/repo";

/** Whether a message of this number already holds the wamid (message_provider_ids, one key read). */
export async function inboundExists(db: DbOrTx, { waNumberId, providerMessageId }: { waNumberId: number; providerMessageId: string }) {
  const [row] = await db
    .select({ id: messageProviderIds.messageId })
    .from(messageProviderIds)
    .where(and(eq(messageProviderIds.waNumberId, waNumberId), eq(messageProviderIds.providerMessageId, providerMessageId)))
    .limit(1);
  return Boolean(row);
}

/**
 * The customer's contact, created or refreshed: found by number, else by customer_id; the
 * profile name and a missing customer_id/number are filled in (lib/contacts/repo.ts upsertContacts).
 */
export async function upsertContact(
  db: DbOrTx,
  { teamId, contact: c }: { teamId: number; contact: { number: string | null; customerId: string | null; name: string | null } },
) {
  const [row] = await upsertContacts(db, { teamId, keys: [c], opts: { refresh: true } });
  return row;
}

/**
 * user_changed_number: the contact now answers at the new number. When the team already has a
 * contact at that number the two are not merged (their histories stay apart) and false is returned.
 */
export async function moveContactNumber(
  db: DbOrTx,
  { teamId, contactId, oldWaId, newWaId }: { teamId: number; contactId: number; oldWaId: string | null; newWaId: string },
) {
  const [clash] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), eq(contacts.customerNumber, newWaId), ne(contacts.id, contactId)))
    .limit(1);
  if (clash) return false;
  await db
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

/**
 * The inbound message, stored once per wamid: its id is drawn and its wamid claimed in
 * message_provider_ids first (ON CONFLICT DO NOTHING), and the message is inserted only when the
 * claim is ours. A concurrent webhook with the same wamid waits on the claim's key until this
 * transaction ends, then finds it taken (undefined: a duplicate), or takes it if this one rolled
 * back. The claim's reference to the message is checked at commit (a deferred key, migration 0037).
 */
export async function insertInbound(db: DbOrTx, values: typeof messages.$inferInsert & { providerMessageId: string }) {
  const [claim] = rowsOf<{ id: number }>(
    await db.execute(sql`
      INSERT INTO message_provider_ids (wa_number_id, provider_message_id, team_id, message_id)
      VALUES (${values.waNumberId}, ${values.providerMessageId}, ${values.teamId}, nextval('messages_id_seq'))
      ON CONFLICT DO NOTHING
      RETURNING message_id AS id`),
  );
  if (!claim) return undefined;
  const [row] = await db
    .insert(messages)
    .values({ ...values, id: Number(claim.id) })
    .returning();
  return row;
}
