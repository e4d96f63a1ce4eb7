import "server-only";
import { getDb, transaction } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import {
  deleteSavedReplyRow,
  findSavedReplyRow,
  insertSavedReply,
  listSavedReplyRows,
  lockTeamShortcuts,
  shortcutTaken,
  updateSavedReplyRow,
  type SavedReplyRow,
} from "./repo";
import {
  SAVED_REPLY_NOT_FOUND,
  SHORTCUT_TAKEN,
  type CreateSavedReplyInput,
  type ListSavedRepliesQuery,
  type SavedReplyDto,
  type UpdateSavedReplyInput,
} from "./schemas";

function toDto(row: SavedReplyRow): SavedReplyDto {
  return {
    id: row.id,
    shortcut: row.shortcut,
    title: row.title,
    content: row.content,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export async function listSavedReplies({ ctx, input }: { ctx: AuthContext; input: ListSavedRepliesQuery }) {
  const { rows, total } = await listSavedReplyRows(
    await getDb(),
    ctx.teamId,
    input.search || undefined,
    input.per_page,
    offsetOf(input.page, input.per_page),
  );
  return { data: rows.map(toDto), pagination: paginationMeta(total, input.per_page, input.page) };
}

export async function getSavedReply({ ctx, input }: { ctx: AuthContext; input: { id: number } }): Promise<SavedReplyDto> {
  const row = await findSavedReplyRow(await getDb(), ctx.teamId, input.id);
  if (!row) throw ApiError.notFound(SAVED_REPLY_NOT_FOUND);
  return toDto(row);
}

export async function createSavedReply({ ctx, input }: { ctx: AuthContext; input: CreateSavedReplyInput }): Promise<SavedReplyDto> {
  return transaction(async (tx) => {
    await lockTeamShortcuts(tx, ctx.teamId);
    if (await shortcutTaken(tx, ctx.teamId, input.shortcut)) throw ApiError.invalid("shortcut", SHORTCUT_TAKEN);
    return toDto(await insertSavedReply(tx, { teamId: ctx.teamId, ...input }));
  });
}

export async function updateSavedReply({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { id: number; changes: UpdateSavedReplyInput };
}): Promise<SavedReplyDto> {
  const { id, changes } = input;
  return transaction(async (tx) => {
    if (changes.shortcut !== undefined) {
      await lockTeamShortcuts(tx, ctx.teamId);
      if (await shortcutTaken(tx, ctx.teamId, changes.shortcut, id)) throw ApiError.invalid("shortcut", SHORTCUT_TAKEN);
    }
    const row = await updateSavedReplyRow(tx, ctx.teamId, id, changes);
    if (!row) throw ApiError.notFound(SAVED_REPLY_NOT_FOUND);
    return toDto(row);
  });
}

export async function deleteSavedReply({ ctx, input }: { ctx: AuthContext; input: { id: number } }): Promise<void> {
  if (!(await deleteSavedReplyRow(await getDb(), ctx.teamId, input.id))) throw ApiError.notFound(SAVED_REPLY_NOT_FOUND);
}
