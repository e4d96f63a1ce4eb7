import "server-only";
import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { requireNumber } from "@/lib/numbers/service";
import { isOwnMediaPath } from "@/lib/media/paths";
import { isSendableStatus, templateNotApproved } from "./sendable";
import { findTemplateByApiId, listTemplateRows, upsertTemplate, type TemplateRow } from "./repo";
import { findSendTemplate, forgetSendCatalog } from "@/lib/messages/send-catalog";
import { listTemplateChanges, type TemplateChangeRow } from "./changes-repo";
import { TEMPLATE_NOT_FOUND, type TemplateChangeDto, type TemplateChangesQuery } from "./sync-schemas";
import {
  metaButtonIndex,
  templateInputSchema,
  type ListTemplatesQuery,
  type Template,
  type TemplateComponent,
  type TemplateInputRaw,
  type TemplateListItem,
} from "./schemas";

export const templateNotFound = (name: string) => `La plantilla ${name} no existe.`;
export { templateNotApproved };

/**
 * A row as the contract's template (2.1); `id` is the provider's id when synced, else ours. A
 * button of a synced template keeps its `index` (Meta's position, when not its position here):
 * it is the `index` a client gives in `button_params`. A sent message's payload leaves it out
 * (buildTemplatePayload).
 */
export function toTemplateDto(row: TemplateRow): Template {
  return {
    id: row.externalId ?? String(row.id),
    name: row.name,
    status: row.status,
    category: row.category,
    language: row.language,
    rejected_reason: row.rejectedReason,
    components: row.components,
  };
}

export function toTemplateListItem(row: TemplateRow, waNumber: string | null): TemplateListItem {
  return {
    ...toTemplateDto(row),
    default_media_path: row.defaultMediaPath,
    quality_score: row.qualityScore,
    wa_number: waNumber,
    updated_at: new Date(row.updatedAt).toISOString(),
  };
}

export async function listTemplates({ ctx, input }: { ctx: AuthContext; input: ListTemplatesQuery }) {
  const waNumberId = input.wa_number ? (await requireNumber(ctx, input.wa_number)).id : undefined;
  const { rows, total } = await listTemplateRows(await getDb(), {
    teamId: ctx.teamId,
    filter: { search: input.search || undefined, waNumberId, sendableOnly: input.sendable === true, status: input.status },
    limit: input.per_page,
    offset: offsetOf(input.page, input.per_page),
  });
  return {
    data: rows.map((r) => toTemplateListItem(r.template, r.waNumber)),
    pagination: paginationMeta(total, input.per_page, input.page),
  };
}

/**
 * `GET /api/v1/message_templates/{templateId}/changes`: what Meta changed in one of the team's
 * templates, newest first (`templateId` is the id the list shows). Another team's is a 404.
 */
export async function listTemplateChangesOf({ ctx, input }: { ctx: AuthContext; input: { templateId: string } & TemplateChangesQuery }) {
  const db = await getDb();
  const template = /^[A-Za-z0-9_.-]{1,64}$/.test(input.templateId)
    ? await findTemplateByApiId(db, { teamId: ctx.teamId, apiId: input.templateId })
    : undefined;
  if (!template) throw ApiError.notFound(TEMPLATE_NOT_FOUND);
  const { rows, total } = await listTemplateChanges(db, {
    teamId: ctx.teamId,
    templateId: template.id,
    limit: input.per_page,
    offset: offsetOf(input.page, input.per_page),
  });
  return { data: rows.map(toChangeDto), pagination: paginationMeta(total, input.per_page, input.page) };
}

function toChangeDto(row: TemplateChangeRow): TemplateChangeDto {
  return {
    id: row.id,
    field: row.field,
    previous: row.previous,
    value: row.value,
    reason: row.reason,
    source: row.source,
    meta_at: row.metaAt ? new Date(row.metaAt).toISOString() : null,
    received_at: new Date(row.receivedAt).toISOString(),
  };
}

/**
 * The template `name` usable from the number (its own first, then team-wide), if any: from this
 * process's cache of them when it may be trusted (lib/messages/send-catalog.ts).
 */
export async function findTemplateForSend(teamId: number, waNumberId: number, name: string) {
  return findSendTemplate(teamId, waNumberId, name);
}

/**
 * 422 on `template_name` unless the template exists and may be sent (APPROVED: lib/templates/sendable.ts);
 * the text names the status Meta gave it and its reason, if any.
 */
export function assertSendable(row: TemplateRow | undefined, name: string): TemplateRow {
  if (!row) throw ApiError.invalid("template_name", templateNotFound(name));
  if (!isSendableStatus(row.status)) throw ApiError.invalid("template_name", templateNotApproved(name, row.status, row.rejectedReason));
  return row;
}

export const BUTTON_INDEX_ORDER = "Los index de los botones deben ir en aumento y no ser menores que la posición del botón en buttons.";

/**
 * A button's `index` (its position in Meta's template, lib/channels/cloud-api/templates.ts) only where
 * it differs from its position in `buttons`, so a template without skipped buttons is stored (and
 * listed) exactly as given. Meta's positions only skip buttons: they increase and none is below
 * the button's own position.
 */
function withMetaIndexes(components: TemplateComponent[]): TemplateComponent[] {
  return components.map((c) => {
    if (c.type !== "BUTTONS") return c;
    let previous = -1;
    const buttons = c.buttons.map((b, position) => {
      const index = metaButtonIndex(b, position);
      if (index < position || index <= previous) throw ApiError.invalid("components", BUTTON_INDEX_ORDER);
      previous = index;
      const { index: _given, ...rest } = b;
      return index === position ? rest : { ...rest, index };
    });
    return { ...c, buttons };
  });
}

/**
 * The components as stored, once the send endpoint's assumptions hold (422 on `components`
 * otherwise): one BODY, at most one HEADER, a TEXT header has text, and buttons keep Meta's index
 * only where it differs from their position. Shared by the admin CLI and the sync with Meta.
 */
export function checkedComponents(components: TemplateComponent[]): TemplateComponent[] {
  const count = (type: string) => components.filter((c) => c.type === type).length;
  if (count("BODY") !== 1) throw ApiError.invalid("components", "La plantilla debe tener exactamente un componente BODY.");
  if (count("HEADER") > 1) throw ApiError.invalid("components", "La plantilla no puede tener más de un componente HEADER.");
  const header = components.find((c) => c.type === "HEADER");
  if (header?.format === "TEXT" && !header.text) {
    throw ApiError.invalid("components", "Un encabezado TEXT debe tener el campo text.");
  }
  return withMetaIndexes(components);
}

/**
 * Adds (or refreshes, same name and language) a template of the caller's team: the admin CLI's
 * `template:add`. Its components are checked (checkedComponents), and a default attachment is an
 * http(s) URL or the team's own upload.
 */
export async function addTemplate({ ctx, input }: { ctx: AuthContext; input: TemplateInputRaw }) {
  const t = templateInputSchema.parse(input);
  const components = checkedComponents(t.components);
  const media = t.default_media_path || null;
  if (media && !/^https?:\/\//i.test(media) && !isOwnMediaPath(ctx.teamId, media)) {
    throw ApiError.invalid("default_media_path", `El archivo por defecto debe estar en uploads/team${ctx.teamId}/ o ser una URL http(s).`);
  }
  const number = t.wa_number ? await requireNumber(ctx, t.wa_number) : null;
  const waNumberId = number?.id ?? null;
  const row = await upsertTemplate(await getDb(), {
    teamId: ctx.teamId,
    waNumberId,
    externalId: t.id ?? null,
    name: t.name,
    language: t.language,
    category: t.category,
    status: t.status,
    rejectedReason: t.rejected_reason,
    components,
    defaultMediaPath: media,
  });
  forgetSendCatalog(ctx.teamId);
  return toTemplateListItem(row, number?.number ?? null);
}
