import "server-only";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { insertEvents } from "@/lib/events/repo";
import { CONVERSATION_NOT_FOUND } from "@/lib/conversations/schemas";
import { getDb, transaction, type DbOrTx } from "@/db/client";
import { findConversationKey, insertNote, listNoteRows, type ConversationKey } from "./repo";
import type { CreateNoteInput, NoteDto } from "./schemas";

/** More than any conversation is expected to hold; the list is not paged. */
const MAX_NOTES = 1000;

function toDto(
  key: ConversationKey,
  row: { id: number; agentId: number | null; agentName: string | null; body: string; afterMessageId: number | null; createdAt: Date },
): NoteDto {
  return {
    id: row.id,
    conversation_id: key.id,
    wa_number: key.waNumber,
    contact_id: key.contactId,
    agent_id: row.agentId,
    agent_name: row.agentName,
    body: row.body,
    after_message_id: row.afterMessageId,
    created_at: row.createdAt.toISOString(),
  };
}

async function requireConversation(db: DbOrTx, ctx: AuthContext, id: number) {
  const key = await findConversationKey(db, { teamId: ctx.teamId, id });
  if (!key) throw ApiError.notFound(CONVERSATION_NOT_FOUND);
  return key;
}

export async function listNotes({ ctx, input }: { ctx: AuthContext; input: { conversationId: number } }): Promise<NoteDto[]> {
  const db = await getDb();
  const key = await requireConversation(db, ctx, input.conversationId);
  return (await listNoteRows(db, { teamId: ctx.teamId, key, limit: MAX_NOTES })).map((r) => toDto(key, r));
}

/**
 * Stores a private note (never a message: nothing goes to WhatsApp, nothing enters the history)
 * signed by the calling agent, and streams it to the team as `note.created` in the same
 * transaction, so the other agents' screens get it exactly when it is committed.
 */
export async function createNote({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { conversationId: number } & CreateNoteInput;
}): Promise<NoteDto> {
  const agent = ctx.actor.kind === "agent" ? ctx.actor : null;
  return transaction(async (tx) => {
    const key = await requireConversation(tx, ctx, input.conversationId);
    const row = await insertNote(tx, {
      teamId: ctx.teamId,
      waNumberId: key.waNumberId,
      contactId: key.contactId,
      agentId: agent?.agentId ?? null,
      body: input.body,
    });
    const dto = toDto(key, { ...row, agentName: agent?.agentName ?? null });
    await insertEvents(tx, [{ teamId: ctx.teamId, type: "note.created", waNumberId: key.waNumberId, contactId: key.contactId, data: dto }]);
    return dto;
  });
}
