import "server-only";
import { and, eq, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { contacts, conversations, messages, REPLY_WINDOW_HOURS, teams } from "@/db/schema";

/** WhatsApp's customer-service window, in hours (docs/architecture.md, "Domain model"). */

/**
 * Everything a reply checks before it writes, in one indexed read: the customer of the reply and
 * whether their 24-hour window is open, the conversation's assignee, the id of the context message
 * (`contextUpdateId`, null when not asked or not in this conversation) and the team's
 * reply_assigns setting. The customer is the team's contact whose number is `digits`, else whose
 * customer_id is `customerId` (a number match wins, as in the history, ruling 7), joined to its
 * conversation on this company number (conversations_key_uq). The window is judged by the
 * database clock, the one that stamped the customer's message. Undefined when no contact matches
 * (a customer who never wrote).
 */
export async function findReplyContact(
  db: DbOrTx,
  {
    teamId,
    waNumberId,
    digits,
    customerId,
    contextUpdateId = null,
  }: { teamId: number; waNumberId: number; digits: string | null; customerId: string; contextUpdateId?: string | null },
) {
  const replyTo =
    contextUpdateId === null
      ? sql<number | null>`NULL::int`
      : sql<number | null>`(SELECT ${messages.id} FROM ${messages}
          WHERE ${messages.updateId} = ${contextUpdateId} AND ${messages.teamId} = ${teamId}
            AND ${messages.waNumberId} = ${waNumberId} AND ${messages.contactId} = ${contacts.id}
          LIMIT 1)`;
  const [row] = await db
    .select({
      id: contacts.id,
      customerNumber: contacts.customerNumber,
      customerId: contacts.customerId,
      assigneeAgentId: conversations.assigneeAgentId,
      windowOpen: sql<boolean>`coalesce(${conversations.lastInboundAt} > now() - ${REPLY_WINDOW_HOURS} * interval '1 hour', false)`,
      replyToMessageId: replyTo.mapWith(Number),
      replyAssigns: sql<boolean>`coalesce((SELECT ${teams.replyAssigns} FROM ${teams} WHERE ${teams.id} = ${teamId}), false)`.mapWith(
        Boolean,
      ),
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
