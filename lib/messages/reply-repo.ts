import "server-only";
import { and, eq, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { contacts, conversations, messages, REPLY_WINDOW_HOURS } from "@/db/schema";

/** WhatsApp's customer-service window, in hours (docs/architecture.md, "Domain model"). */

/**
 * The customer of a reply and whether their 24-hour window is open, in one indexed read: the
 * team's contact whose number is `digits`, else whose customer_id is `customerId` (a number match
 * wins, as in the history, ruling 7), joined to its conversation on this company number
 * (conversations_key_uq). The window is judged by the database clock, the one that stamped the
 * customer's message. Undefined when no contact matches (a customer who never wrote).
 */
export async function findReplyContact(
  db: DbOrTx,
  { teamId, waNumberId, digits, customerId }: { teamId: number; waNumberId: number; digits: string | null; customerId: string },
) {
  const [row] = await db
    .select({
      id: contacts.id,
      customerNumber: contacts.customerNumber,
      customerId: contacts.customerId,
      assigneeAgentId: conversations.assigneeAgentId,
      windowOpen: sql<boolean>`coalesce(${conversations.lastInboundAt} > now() - ${REPLY_WINDOW_HOURS} * interval '1 hour', false)`,
    })
    .from(contacts)
    .leftJoin(
      conversations,
      and(eq(conversations.teamId, contacts.teamId), eq(conversations.waNumberId, waNumberId), eq(conversations.contactId, contacts.id)),
    )
    .where(
      and(
        eq(contacts.teamId, teamId),
        or(digits === null ? sql`false` : eq(contacts.customerNumber, digits), eq(contacts.customerId, customerId)),
      ),
    )
    .orderBy(sql`(${contacts.customerNumber} = ${digits}) IS TRUE DESC`)
    .limit(1);
  return row;
}

/** The id of a message of this very conversation, by its update_id. */
export async function findConversationMessageId(
  db: DbOrTx,
  { teamId, waNumberId, contactId, updateId }: { teamId: number; waNumberId: number; contactId: number; updateId: string },
) {
  const [row] = await db
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.updateId, updateId),
        eq(messages.teamId, teamId),
        eq(messages.waNumberId, waNumberId),
        eq(messages.contactId, contactId),
      ),
    )
    .limit(1);
  return row?.id;
}
