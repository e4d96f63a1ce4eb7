import "server-only";
import { getDb, transaction } from "@/db/client";
import type { z } from "zod";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { recordCallerAudit } from "@/lib/audit/service";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import {
  contactCountsOfLabels,
  deleteLabelRow,
  insertLabel,
  listLabelRows,
  lockTeamLabels,
  titleTaken,
  updateLabelRow,
  findLabelRow,
  findLabelByTitle,
  teamLabelIds,
  type LabelRow,
} from "./repo";
import type { DbOrTx } from "@/db/client";
import {
  DEFAULT_LABEL_COLORS,
  LABEL_NOT_FOUND,
  LABEL_TITLE_TAKEN,
  createLabelBody,
  labelTitle,
  type LabelDto,
  type LabelListItemDto,
  type UpdateLabelInput,
} from "./schemas";

export function toLabelDto(row: Pick<LabelRow, "id" | "title" | "description" | "bgColor" | "textColor">): LabelDto {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    bg_color: row.bgColor,
    text_color: row.textColor,
  };
}

export async function listLabels({ ctx, input }: { ctx: AuthContext; input: { page: number; per_page: number } }) {
  const db = await getDb();
  const { rows, total } = await listLabelRows(db, {
    teamId: ctx.teamId,
    limit: input.per_page,
    offset: offsetOf(input.page, input.per_page),
  });
  const counts = await contactCountsOfLabels(db, { teamId: ctx.teamId, labelIds: rows.map((r) => r.id) });
  const data: LabelListItemDto[] = rows.map((r) => ({ ...toLabelDto(r), contacts_count: counts.get(r.id) ?? 0 }));
  return { data, pagination: paginationMeta(total, input.per_page, input.page) };
}

/** Also used by the admin CLI (`label:add`), hence the input is validated here too. */
export async function createLabel({ ctx, input: raw }: { ctx: AuthContext; input: z.input<typeof createLabelBody> }): Promise<LabelDto> {
  const input = createLabelBody.parse(raw);
  return transaction(async (tx) => {
    await lockTeamLabels(tx, ctx.teamId);
    if (await titleTaken(tx, { teamId: ctx.teamId, title: input.title })) throw ApiError.invalid("title", LABEL_TITLE_TAKEN);
    const row = await insertLabel(tx, {
      teamId: ctx.teamId,
      title: input.title,
      description: input.description ?? null,
      bgColor: input.bg_color,
      textColor: input.text_color,
    });
    const dto = toLabelDto(row);
    await recordCallerAudit(tx, ctx, { action: "label.created", target: { kind: "label", id: row.id, name: row.title }, after: dto });
    return dto;
  });
}

/**
 * The team's labels of these titles, creating those it lacks (default colours, no description),
 * in the caller's transaction. Titles are matched as the labels API keeps them unique (trimmed,
 * case-insensitive), under the same per-team lock, so a title is never created twice whoever
 * races. Each title must pass the API's own title rule (`labelTitle`): the caller checks first.
 * Used by the contacts import (`create_missing_labels`).
 */
export async function ensureLabelsByTitle(
  tx: DbOrTx,
  teamId: number,
  titles: string[],
): Promise<{ title: string; label: LabelDto; created: boolean }[]> {
  if (!titles.length) return [];
  await lockTeamLabels(tx, teamId);
  const out: { title: string; label: LabelDto; created: boolean }[] = [];
  for (const raw of titles) {
    const title = labelTitle.parse(raw);
    const found = await findLabelByTitle(tx, { teamId, title });
    if (found) out.push({ title: raw, label: toLabelDto(found), created: false });
    else {
      const row = await insertLabel(tx, {
        teamId,
        title,
        description: null,
        bgColor: DEFAULT_LABEL_COLORS.bg_color,
        textColor: DEFAULT_LABEL_COLORS.text_color,
      });
      out.push({ title: raw, label: toLabelDto(row), created: true });
    }
  }
  return out;
}

export async function updateLabel({
  ctx,
  input,
}: {
  ctx: AuthContext;
  input: { id: number; changes: UpdateLabelInput };
}): Promise<LabelDto> {
  const { id, changes } = input;
  return transaction(async (tx) => {
    if (changes.title !== undefined) await lockTeamLabels(tx, ctx.teamId);
    // Read first: the audit trail keeps what changed, before and after.
    const before = await findLabelRow(tx, { teamId: ctx.teamId, id });
    if (!before) throw ApiError.notFound(LABEL_NOT_FOUND);
    if (changes.title !== undefined && (await titleTaken(tx, { teamId: ctx.teamId, title: changes.title, exceptId: id })))
      throw ApiError.invalid("title", LABEL_TITLE_TAKEN);
    const row = await updateLabelRow(tx, {
      teamId: ctx.teamId,
      id,
      values: {
        title: changes.title,
        description: changes.description,
        bgColor: changes.bg_color,
        textColor: changes.text_color,
      },
    });
    if (!row) throw ApiError.notFound(LABEL_NOT_FOUND);
    const dto = toLabelDto(row);
    await recordCallerAudit(tx, ctx, {
      action: "label.updated",
      target: { kind: "label", id, name: row.title },
      before: toLabelDto(before),
      after: dto,
    });
    return dto;
  });
}

export async function deleteLabel({ ctx, input }: { ctx: AuthContext; input: { id: number } }): Promise<void> {
  await transaction(async (tx) => {
    const before = await findLabelRow(tx, { teamId: ctx.teamId, id: input.id });
    if (!before || !(await deleteLabelRow(tx, { teamId: ctx.teamId, id: input.id }))) throw ApiError.notFound(LABEL_NOT_FOUND);
    await recordCallerAudit(tx, ctx, {
      action: "label.deleted",
      target: { kind: "label", id: input.id, name: before.title },
      before: toLabelDto(before),
    });
  });
}

/**
 * A `label_id` filter of a list (contacts, conversations), deduplicated; a label that is not the
 * team's answers the same 422 on every list (another team's label reads like a missing one).
 */
export async function requireTeamLabels(teamId: number, ids: number[] | undefined): Promise<number[] | undefined> {
  const labelIds = ids ? [...new Set(ids)] : undefined;
  if (labelIds?.length) {
    const known = await teamLabelIds(await getDb(), { teamId, ids: labelIds });
    if (labelIds.some((id) => !known.has(id))) throw ApiError.invalid("label_id", LABEL_NOT_FOUND);
  }
  return labelIds;
}
