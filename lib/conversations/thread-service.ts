import "server-only";
import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { HISTORY_EXTRAS } from "@/lib/messages/history-schemas";
import { toHistoryRecordWith } from "@/lib/messages/record";
import { findConversationKey } from "@/lib/notes/repo";
import { CONVERSATION_NOT_FOUND, CURSOR_INVALID } from "./schemas";
import { listThreadRows } from "./thread-repo";
import { THREAD_OK, type ConversationMessagesPage, type ConversationMessagesQuery } from "./thread-schemas";

// The cursor is the oldest returned message's id, opaque to clients ("m" + base 36).
function encodeCursor(id: number): string {
  return `m${id.toString(36)}`;
}

function decodeCursor(cursor: string): number {
  const m = /^m([0-9a-z]{1,7})$/.exec(cursor);
  const id = m ? parseInt(m[1], 36) : NaN;
  if (Number.isSafeInteger(id) && id > 0 && id <= 2147483647) return id;
  throw ApiError.invalid("cursor", CURSOR_INVALID);
}

const toRecord = toHistoryRecordWith(HISTORY_EXTRAS);

/**
 * The messages of one of the team's conversations, newest first, a page at a time: the inbox's
 * thread opens with the first page (one request, whatever the conversation's age) and scrolls back
 * with `next_cursor`. Ordered by id, as the history (4.5) and the thread's bubbles are: the order
 * the server stored them in. Read from the primary: the thread reads its newest page right after a
 * `message.created` event, which a replica may not have replayed yet.
 */
export async function listConversationMessages({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { conversationId: number } & ConversationMessagesQuery;
}): Promise<ConversationMessagesPage> {
  const beforeId = input.cursor ? decodeCursor(input.cursor) : null;
  const db = await getDb();
  // One row more than the page tells whether older messages remain, without a count.
  const rows = await listThreadRows(db, { teamId: ctx.teamId, conversationId: input.conversationId, beforeId, limit: input.per_page + 1 });
  // No row at all: an empty conversation, or none of the team's (rare: a second look tells which).
  if (rows.length === 0 && !(await findConversationKey(db, { teamId: ctx.teamId, id: input.conversationId }))) {
    throw ApiError.notFound(CONVERSATION_NOT_FOUND);
  }
  const page = rows.slice(0, input.per_page);
  return {
    message: THREAD_OK,
    data: page.map(toRecord),
    next_cursor: rows.length > input.per_page ? encodeCursor(page[page.length - 1].id) : null,
  };
}
