import "server-only";
import { and, asc, eq, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { agents, conversationNotes, conversations, messages, waNumbers } from "@/db/schema";

/** The conversation's key (number and contact) and its number's digits, or undefined for another team's id. */
export async function findConversationKey(db: DbOrTx, { teamId, id }: { teamId: number; id: number }) {
  const [row] = await db
    .select({ id: conversations.id, waNumberId: conversations.waNumberId, contactId: conversations.contactId, waNumber: waNumbers.number })
    .from(conversations)
    .innerJoin(waNumbers, and(eq(waNumbers.teamId, conversations.teamId), eq(waNumbers.id, conversations.waNumberId)))
    .where(and(eq(conversations.teamId, teamId), eq(conversations.id, id)))
    .limit(1);
  return row;
}

export type ConversationKey = NonNullable<Awaited<ReturnType<typeof findConversationKey>>>;

const noteColumns = {
  id: conversationNotes.id,
  agentId: conversationNotes.agentId,
  agentName: agents.name,
  body: conversationNotes.body,
  afterMessageId: conversationNotes.afterMessageId,
  createdAt: conversationNotes.createdAt,
};

/** A conversation's notes, oldest first (a thread reads them in order among its messages). */
export async function listNoteRows(db: DbOrTx, { teamId, key, limit }: { teamId: number; key: ConversationKey; limit: number }) {
  return db
    .select(noteColumns)
    .from(conversationNotes)
    .leftJoin(agents, and(eq(agents.teamId, conversationNotes.teamId), eq(agents.id, conversationNotes.agentId)))
    .where(
      and(
        eq(conversationNotes.teamId, teamId),
        eq(conversationNotes.waNumberId, key.waNumberId),
        eq(conversationNotes.contactId, key.contactId),
      ),
    )
    .orderBy(asc(conversationNotes.id))
    .limit(limit);
}

/** Inserts a note placed after the conversation's newest message (read in the same statement). */
export async function insertNote(db: DbOrTx, values: Omit<typeof conversationNotes.$inferInsert, "afterMessageId">) {
  const newest = sql`(SELECT max(id) FROM ${messages} WHERE team_id = ${values.teamId} AND wa_number_id = ${values.waNumberId}
    AND contact_id = ${values.contactId})`;
  const [row] = await db
    .insert(conversationNotes)
    .values({ ...values, afterMessageId: newest })
    .returning();
  return row;
}
