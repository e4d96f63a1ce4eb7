import "server-only";
import { getDb, transaction } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { recordCallerAudit } from "@/lib/audit/service";
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
  const { rows, total } = await listSavedReplyRows(await getDb(), {
    teamId: ctx.teamId,
    search: input.search || undefined,
    limit: input.per_page,
    offset: offsetOf(input.page, input.per_page),
  });
  return { data: rows.map(toDto), pagination: paginationMeta(total, input.per_page, input.page) };
}

export async function getSavedReply({ ctx, input }: { ctx: AuthContext; input: { id: number } }): Promise<SavedReplyDto> {
  const row = await findSavedReplyRow(await getDb(), { teamId: ctx.teamId, id: input.id });
  if (!row) throw ApiError.notFound(SAVED_REPLY_NOT_FOUND);
  return toDto(row);
}

export async function createSavedReply({ ctx, input }: { ctx: AuthContext; input: CreateSavedReplyInput }): Promise<SavedReplyDto> {
  return transaction(async (tx) => {
    await lockTeamShortcuts(tx, ctx.teamId);
    if (await shortcutTaken(tx, { teamId: ctx.teamId, shortcut: input.shortcut })) throw ApiError.invalid("shortcut", SHORTCUT_TAKEN);
    const dto = toDto(await insertSavedReply(tx, { teamId: ctx.teamId, ...input }));
    await recordCallerAudit(tx, ctx, { action: "saved_reply.created", target: target(dto), after: audited(dto) });
    return dto;
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
      if (await shortcutTaken(tx, { teamId: ctx.teamId, shortcut: changes.shortcut, exceptId: id }))
        throw ApiError.invalid("shortcut", SHORTCUT_TAKEN);
    }
    const before = await findSavedReplyRow(tx, { teamId: ctx.teamId, id });
    const row = before && (await updateSavedReplyRow(tx, { teamId: ctx.teamId, id, values: changes }));
    if (!before || !row) throw ApiError.notFound(SAVED_REPLY_NOT_FOUND);
    const dto = toDto(row);
    await recordCallerAudit(tx, ctx, {
      action: "saved_reply.updated",
      target: target(dto),
      before: audited(toDto(before)),
      after: audited(dto),
    });
    return dto;
  });
}

export async function deleteSavedReply({ ctx, input }: { ctx: AuthContext; input: { id: number } }): Promise<void> {
  await transaction(async (tx) => {
    const before = await findSavedReplyRow(tx, { teamId: ctx.teamId, id: input.id });
    if (!before || !(await deleteSavedReplyRow(tx, { teamId: ctx.teamId, id: input.id }))) throw ApiError.notFound(SAVED_REPLY_NOT_FOUND);
    const dto = toDto(before);
    await recordCallerAudit(tx, ctx, { action: "saved_reply.deleted", target: target(dto), before: audited(dto) });
  });
}

/** A saved reply as its audit rows name it, and the fields they compare (not its timestamps). */
const target = (dto: SavedReplyDto) => ({ kind: "saved_reply", id: dto.id, name: `/${dto.shortcut}` });
const audited = ({ shortcut, title, content }: SavedReplyDto) => ({ shortcut, title, content });
