import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { bots, campaigns, messageProviderIds, messages } from "@/db/schema";

/**
 * The business message a reply quotes (`context.id` is its wamid), within the same number: its id
 * from message_provider_ids, then the message by (id, team_id), a constant the planner prunes to
 * one partition.
 */
export async function findByProviderId(tx: DbOrTx, teamId: number, waNumberId: number, providerMessageId: string) {
  const [claim] = await tx
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
  const [row] = await tx
    .select()
    .from(messages)
    .where(and(eq(messages.id, claim.id), eq(messages.teamId, teamId), eq(messages.direction, "OUTBOUND")))
    .limit(1);
  return row;
}

/** Latest template sent to this contact from this number: a backward scan of the history index. */
export async function findLatestTemplate(tx: DbOrTx, teamId: number, waNumberId: number, contactId: number) {
  const [row] = await tx
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

export async function findBot(tx: DbOrTx, teamId: number, id: number) {
  const [row] = await tx
    .select()
    .from(bots)
    .where(and(eq(bots.teamId, teamId), eq(bots.id, id)))
    .limit(1);
  return row;
}

export async function findDefaultBot(tx: DbOrTx, teamId: number) {
  const [row] = await tx
    .select()
    .from(bots)
    .where(and(eq(bots.teamId, teamId), eq(bots.isDefault, true)))
    .orderBy(bots.id)
    .limit(1);
  return row;
}

export async function findCampaign(tx: DbOrTx, teamId: number, id: number) {
  const [row] = await tx
    .select()
    .from(campaigns)
    .where(and(eq(campaigns.teamId, teamId), eq(campaigns.id, id)))
    .limit(1);
  return row;
}
