import "server-only";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { Db, DbOrTx } from "@/db/client";
import { placeholder, preparedOnce, type Param } from "@/db/prepared";
import { conversations, messages } from "@/db/schema";
import { recordColumns } from "@/lib/messages/history-repo";

export type ThreadPageParams = {
  teamId: number;
  conversationId: number;
  /** Only messages with a smaller id (the previous page's oldest); null: the newest. */
  beforeId: number | null;
  limit: number;
};

/** The same, each value either given or a placeholder of a prepared statement. */
type ThreadPageShape = { teamId: Param<number>; conversationId: Param<number>; beforeId: Param<number> | null; limit: Param<number> };

/**
 * One page of a conversation, newest first, with no date window, in one statement: the
 * conversation's number and customer are two uncorrelated scalar subqueries on its primary key
 * (InitPlans, run once before the scan), so opening a thread is one round trip, not a lookup and
 * then a page. The equality columns and the id order are exactly
 * `messages_history_idx (team_id, wa_number_id, contact_id, id)`, and `messages` is partitioned by
 * ranges of id, so PostgreSQL reads the partitions newest first, each by a backward scan of that
 * index, and stops after `limit` rows: one statement whether the conversation is a day or eight
 * years old. The cursor is written twice: as a row comparison over the index's columns (an index
 * condition of that index only, never a walk of the primary key across other conversations,
 * docs/history.md) and as a plain `id <` that prunes the newer partitions when the statement is
 * planned. No row: the conversation is empty or not the team's (the caller tells which). Exposed
 * so tests can EXPLAIN what is sent.
 */
export function threadPageQuery(db: DbOrTx, p: ThreadPageShape) {
  const ofConversation = (column: typeof conversations.waNumberId | typeof conversations.contactId) =>
    sql`(${db
      .select({ v: column })
      .from(conversations)
      .where(and(eq(conversations.teamId, p.teamId), eq(conversations.id, p.conversationId)))})`;
  const waNumberId = ofConversation(conversations.waNumberId);
  const contactId = ofConversation(conversations.contactId);
  const keys = and(eq(messages.teamId, p.teamId), sql`${messages.waNumberId} = ${waNumberId}`, sql`${messages.contactId} = ${contactId}`)!;
  const before =
    p.beforeId === null
      ? undefined
      : and(
          lt(messages.id, p.beforeId),
          sql`(${messages.teamId}, ${messages.waNumberId}, ${messages.contactId}, ${messages.id}) < (${p.teamId}::int, ${waNumberId}, ${contactId}, ${p.beforeId}::int)`,
        );
  return db.select(recordColumns).from(messages).where(and(keys, before)).orderBy(desc(messages.id)).limit(p.limit);
}

// Built once per database handle (db/prepared.ts): opening a thread is the inbox's most frequent
// read, and building this select with its two subqueries was the largest share of drizzle's CPU in
// its profile (bench/log/2026-12-06-sends-and-thread.md). The LIMIT is a parameter, as it was
// when the query was built per request: the generic plan keeps the backward index scans.
const vary = {
  teamId: placeholder<number>("teamId"),
  conversationId: placeholder<number>("conversationId"),
  limit: placeholder<number>("limit"),
};
const newestPage = preparedOnce((db) => threadPageQuery(db, { ...vary, beforeId: null }).prepare("conversation_thread_newest"));
const olderPage = preparedOnce((db) =>
  threadPageQuery(db, { ...vary, beforeId: placeholder<number>("beforeId") }).prepare("conversation_thread_older"),
);

export async function listThreadRows(db: Db, p: ThreadPageParams) {
  const { teamId, conversationId, limit, beforeId } = p;
  return beforeId === null
    ? newestPage(db).execute({ teamId, conversationId, limit })
    : olderPage(db).execute({ teamId, conversationId, limit, beforeId });
}
