import "server-only";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { messages } from "@/db/schema";
import { recordColumns } from "@/lib/messages/history-repo";

export type ThreadPageParams = {
  teamId: number;
  waNumberId: number;
  contactId: number;
  /** Only messages with a smaller id (the previous page's oldest); null: the newest. */
  beforeId: number | null;
  limit: number;
};

/**
 * One page of a conversation, newest first, with no date window: the equality columns and the id
 * order are exactly `messages_history_idx (team_id, wa_number_id, contact_id, id)`, and `messages`
 * is partitioned by ranges of id, so PostgreSQL reads the partitions newest first, each by a
 * backward scan of that index, and stops after `limit` rows: one statement whether the
 * conversation is a day or eight years old. The cursor is written twice: as a row comparison over
 * the index's columns (an index condition of that index only, never a walk of the primary key
 * across other conversations, docs/history.md) and as a plain `id <` that prunes the newer
 * partitions when the statement is planned. Exposed so tests can EXPLAIN what is sent.
 */
export function threadPageQuery(db: DbOrTx, p: ThreadPageParams) {
  const keys = and(eq(messages.teamId, p.teamId), eq(messages.waNumberId, p.waNumberId), eq(messages.contactId, p.contactId))!;
  const before =
    p.beforeId === null
      ? undefined
      : and(
          lt(messages.id, p.beforeId),
          sql`(${messages.teamId}, ${messages.waNumberId}, ${messages.contactId}, ${messages.id}) < (${p.teamId}::int, ${p.waNumberId}::int, ${p.contactId}::int, ${p.beforeId}::int)`,
        );
  return db.select(recordColumns).from(messages).where(and(keys, before)).orderBy(desc(messages.id)).limit(p.limit);
}

export async function listThreadRows(db: DbOrTx, p: ThreadPageParams) {
  return threadPageQuery(db, p);
}
