import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { bots, campaigns, contacts, messageProviderIds, messages } from "@/db/schema";

/**
 * The business message a reply quotes (`context.id` is its wamid), within the same number: its id
 * from message_provider_ids, then the message by (id, team_id), a constant the planner prunes to
 * one partition.
 */
export async function findByProviderId(
  db: DbOrTx,
  { teamId, waNumberId, providerMessageId }: { teamId: number; waNumberId: number; providerMessageId: string },
) {
  const [claim] = await db
    .select({ id: messageProviderIds.messageId })
    .from(messageProviderIds)
    .where(
      and(
        eq(messageProviderIds.waNumberId, waNumberId),
        eq(messageProviderIds.providerMessageId, providerMessageId),
        eq(messageProviderIds.teamId, teamId),
      ),
    )
    .limit(1);
  if (!claim) return undefined;
  const [row] = await db
    .select()
    .from(messages)
    .where(and(eq(messages.id, claim.id), eq(messages.teamId, teamId), eq(messages.direction, "OUTBOUND")))
    .limit(1);
  return row;
}

/** Latest template sent to this contact from this number: a backward scan of the history index. */
export async function findLatestTemplate(
  db: DbOrTx,
  { teamId, waNumberId, contactId }: { teamId: number; waNumberId: number; contactId: number },
) {
  const [row] = await db
    .select()
    .from(messages)
    .where(
      and(
        eq(messages.teamId, teamId),
        eq(messages.waNumberId, waNumberId),
        eq(messages.contactId, contactId),
        eq(messages.direction, "OUTBOUND"),
        eq(messages.type, "template"),
      ),
    )
    .orderBy(desc(messages.id))
    .limit(1);
  return row;
}

export async function findBot(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  const [row] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.teamId, teamId), eq(bots.id, id)))
    .limit(1);
  return row;
}

export async function findDefaultBot(db: DbOrTx, teamId: number) {
  const [row] = await db
    .select()
    .from(bots)
    .where(and(eq(bots.teamId, teamId), eq(bots.isDefault, true)))
    .orderBy(bots.id)
    .limit(1);
  return row;
}

export async function findCampaign(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  const [row] = await db
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.teamId, teamId), eq(campaigns.id, id)))
    .limit(1);
  return row;
}

/** The team's contact with this number (digits only), as the inbound path would find it. */
export async function findContactIdByNumber(db: DbOrTx, { teamId, number }: { teamId: number; number: string }) {
  const [row] = await db
    .select({ id: contacts.id })
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), eq(contacts.customerNumber, number)))
    .limit(1);
  return row?.id;
}
