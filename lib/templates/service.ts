import "server-only";
import { getDb } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { ApiError } from "@/lib/http/errors";
import { offsetOf, paginationMeta } from "@/lib/http/pagination";
import { requireNumber } from "@/lib/numbers/service";
import { isOwnMediaPath } from "@/lib/media/paths";
import { findTemplateForNumber, listTemplateRows, upsertTemplate, type TemplateRow } from "./repo";
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
export const templateNotApproved = (name: string, status: string) => `La plantilla ${name} no está aprobada (estado: ${status}).`;

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

export function toTemplateListItem(row: TemplateRow): TemplateListItem {
  return { ...toTemplateDto(row), default_media_path: row.defaultMediaPath };
}

export async function listTemplates({ ctx, input }: { ctx: AuthContext; input: ListTemplatesQuery }) {
  const waNumberId = input.wa_number ? (await requireNumber(ctx, input.wa_number)).id : undefined;
  const { rows, total } = await listTemplateRows(
    await getDb(),
    ctx.teamId,
    { search: input.search || undefined, waNumberId },
    input.per_page,
    offsetOf(input.page, input.per_page),
  );
  return { data: rows.map(toTemplateListItem), pagination: paginationMeta(total, input.per_page, input.page) };
}

/** The template `name` usable from the number (its own first, then team-wide), if any. */
export async function findTemplateForSend(teamId: number, waNumberId: number, name: string) {
  return findTemplateForNumber(await getDb(), teamId, waNumberId, name);
}

/** 422 on `template_name` unless the template exists and is approved. */
export function assertSendable(row: TemplateRow | undefined, name: string): TemplateRow {
  if (!row) throw ApiError.invalid("template_name", templateNotFound(name));
  if (row.status !== "APPROVED") throw ApiError.invalid("template_name", templateNotApproved(name, row.status));
  return row;
}

export const BUTTON_INDEX_ORDER = "Los index de los botones deben ir en aumento y no ser menores que la posición del botón en buttons.";

/**
 * A button's `index` (its position in Meta's template, lib/channels/template-sync.ts) only where
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
  const components = withMetaIndexes(t.components);
  const media = t.default_media_path || null;
  if (media && !/^https?:\/\//i.test(media) && !isOwnMediaPath(ctx.teamId, media)) {
    throw ApiError.invalid("default_media_path", `El archivo por defecto debe estar en uploads/team${ctx.teamId}/ o ser una URL http(s).`);
  }
  const waNumberId = t.wa_number ? (await requireNumber(ctx, t.wa_number)).id : null;
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
  return toTemplateListItem(row);
}
