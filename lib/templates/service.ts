import "server-only";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { requireNumber } from "@/lib/numbers/service";
import { isOwnMediaPath } from "@/lib/media/paths";
import { findTemplateForNumber, listTemplateRows, upsertTemplate, type TemplateRow } from "./repo";
import { templateInputSchema, type ListTemplatesQuery, type Template, type TemplateInputRaw, type TemplateListItem } from "./schemas";

export const templateNotFound = (name: string) => `La plantilla ${name} no existe.`;
export const templateNotApproved = (name: string, status: string) => `La plantilla ${name} no está aprobada (estado: ${status}).`;

/** A row as the contract's template (2.1); `id` is the provider's id when synced, else ours. */
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

export function toTemplateListItem(row: TemplateRow): TemplateListItem {
  return { ...toTemplateDto(row), default_media_path: row.defaultMediaPath };
}

export async function listTemplates({ ctx, input }: { ctx: AuthContext; input: ListTemplatesQuery }) {
  const waNumberId = input.wa_number ? (await requireNumber(ctx, input.wa_number)).id : undefined;
  const { rows, total } = await listTemplateRows(
    ctx.teamId,
    { search: input.search || undefined, waNumberId },
    input.per_page,
    offsetOf(input.page, input.per_page),
  );
  return { data: rows.map(toTemplateListItem), pagination: paginationMeta(total, input.per_page, input.page) };
}

/** The template `name` usable from the number (its own first, then team-wide), if any. */
export function findTemplateForSend(teamId: number, waNumberId: number, name: string) {
  return findTemplateForNumber(teamId, waNumberId, name);
}

/** 422 on `template_name` unless the template exists and is approved. */
export function assertSendable(row: TemplateRow | undefined, name: string): TemplateRow {
  if (!row) throw ApiError.invalid("template_name", templateNotFound(name));
  if (row.status !== "APPROVED") throw ApiError.invalid("template_name", templateNotApproved(name, row.status));
  return row;
}

/**
 * Adds (or refreshes, same name and language) a template of the caller's team: the admin CLI and
 * template sync. The send endpoint relies on what is checked here: one BODY, at most one HEADER,
 * a TEXT header has text, and a default attachment is an http(s) URL or the team's own upload.
 */
export async function addTemplate({ ctx, input }: { ctx: AuthContext; input: TemplateInputRaw }) {
  const t = templateInputSchema.parse(input);
  const count = (type: string) => t.components.filter((c) => c.type === type).length;
  if (count("BODY") !== 1) throw ApiError.invalid("components", "La plantilla debe tener exactamente un componente BODY.");
  if (count("HEADER") > 1) throw ApiError.invalid("components", "La plantilla no puede tener más de un componente HEADER.");
  const header = t.components.find((c) => c.type === "HEADER");
  if (header?.format === "TEXT" && !header.text) {
    throw ApiError.invalid("components", "Un encabezado TEXT debe tener el campo text.");
  }
  const media = t.default_media_path || null;
  if (media && !/^https?:\/\//i.test(media) && !isOwnMediaPath(ctx.teamId, media)) {
    throw ApiError.invalid("default_media_path", `El archivo por defecto debe estar en uploads/team${ctx.teamId}/ o ser una URL http(s).`);
  }
  const waNumberId = t.wa_number ? (await requireNumber(ctx, t.wa_number)).id : null;
  const row = await upsertTemplate({
    teamId: ctx.teamId,
    waNumberId,
    externalId: t.id ?? null,
    name: t.name,
    language: t.language,
    category: t.category,
    status: t.status,
    rejectedReason: t.rejected_reason,
    components: t.components,
    defaultMediaPath: media,
  });
  return toTemplateListItem(row);
}
