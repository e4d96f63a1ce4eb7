import "server-only";
import { getDb, transaction } from "@/db/client";
import type { AuthContext } from "@/lib/auth/context";
import { recordCallerAudit } from "@/lib/audit/service";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { graphSettings } from "@/lib/delivery/config";
import { withSecrets } from "@/lib/channels/credentials";
import { createGraphTemplate, deleteGraphTemplate, type TemplateRefusal } from "@/lib/channels/cloud-api/template-admin";
import { requireNumber } from "@/lib/numbers/service";
import { findNumberById } from "@/lib/numbers/repo";
import { lockTemplateForMeta, updateTemplateFromMeta } from "./changes-repo";
import { applyTemplateUpdate, recordTemplateChange } from "./meta-updates";
import { findTemplateByApiId } from "./repo";
import { findTemplateByNameLanguage, insertSubmittedTemplate, listDueSandboxReviews } from "./editor-repo";
import { TEMPLATE_NOT_FOUND } from "./sync-schemas";
import { toTemplateListItem } from "./service";
import { defaultMediaOf, graphCreateBody, storedComponents } from "./draft-components";
import type { TemplateDraft } from "./draft-schema";

/**
 * The template editor (docs/features/template-editor.md): a draft checked by Meta's rules
 * (./draft-schema.ts) is submitted to the business account of the number it names, kept with
 * the status Meta answers (PENDING while Meta reviews it), and from then on follows Meta's
 * webhooks like any other template. A sandbox number has no Meta: the template stays PENDING for
 * SANDBOX_TEMPLATE_REVIEW_MS and is then approved through the webhooks' own writer
 * (approveDueSandboxTemplates, a chore of the delivery workers).
 */

export const templateExists = (name: string, language: string) => `Ya existe la plantilla ${name} en el idioma ${language}.`;
export const LOCATION_HEADER_UNSUPPORTED =
  "Las plantillas con encabezado de ubicación todavía no se pueden enviar desde este servicio: créela en el administrador de Meta.";
export const NO_BUSINESS_ACCOUNT = "El número no tiene una cuenta de WhatsApp Business configurada: no se le pueden enviar plantillas.";
export const metaRefused = (words: string) => `Meta rechazó la plantilla: ${words}`;
export const metaDeleteRefused = (words: string) => `Meta no borró la plantilla: ${words}`;
export const META_UNREACHABLE = "No se pudo hablar con Meta. Inténtelo de nuevo en unos minutos.";

/** Meta's refusal as the answer: its words (422); Meta out of reach or failing (a timeout, a 5xx): 502. */
function refusalError(r: TemplateRefusal, text: (words: string) => string): ApiError {
  if (r.retryable) return new ApiError(502, META_UNREACHABLE);
  const message = text(r.userMessage.endsWith(".") ? r.userMessage : `${r.userMessage}.`);
  return new ApiError(422, message, { template: [message] });
}

/** `POST /api/v1/message_templates`: submits the draft to Meta (or the sandbox) and keeps it with Meta's status. */
export async function submitTemplateDraft({ ctx, input }: { ctx: AuthContext; input: TemplateDraft }) {
  const number = await requireNumber(ctx, input.wa_number);
  if (input.header.format === "LOCATION") throw ApiError.invalid("header.format", LOCATION_HEADER_UNSUPPORTED);
  if (await findTemplateByNameLanguage(await getDb(), { teamId: ctx.teamId, name: input.name, language: input.language })) {
    throw ApiError.invalid("name", templateExists(input.name, input.language));
  }
  let meta: { id: string | null; status: string; category: string } = { id: null, status: "PENDING", category: input.category };
  if (number.provider === "cloud_api") {
    if (!number.businessAccountId) throw ApiError.invalid("wa_number", NO_BUSINESS_ACCOUNT);
    const created = await createGraphTemplate(graphSettings(), withSecrets(number), graphCreateBody(input));
    if (!created.ok) throw refusalError(created, metaRefused);
    meta = { id: created.id, status: created.status, category: created.category ?? input.category };
  }
  const submittedAt = new Date();
  return transaction(async (tx) => {
    const row = await insertSubmittedTemplate(tx, {
      teamId: ctx.teamId,
      waNumberId: number.id,
      externalId: meta.id,
      name: input.name,
      language: input.language,
      category: meta.category,
      status: meta.status,
      rejectedReason: "NONE",
      statusChangedAt: submittedAt,
      components: storedComponents(input),
      defaultMediaPath: defaultMediaOf(input),
    });
    if (!row) throw ApiError.invalid("name", templateExists(input.name, input.language));
    await recordTemplateChange(tx, {
      teamId: ctx.teamId,
      after: row,
      change: { field: "status", previous: null, value: row.status, reason: null },
      meta: { at: submittedAt, raw: { submitted: true, provider: number.provider }, source: "editor" },
    });
    await recordCallerAudit(tx, ctx, {
      action: "template.submitted",
      target: { kind: "template", id: row.externalId ?? row.id, name: `${row.name} (${row.language})` },
      after: { name: row.name, language: row.language, category: row.category, status: row.status, wa_number: number.number },
    });
    return toTemplateListItem(row, number.number);
  });
}

/**
 * `DELETE /api/v1/message_templates/{templateId}`: Meta deletes it first (`DELETE
 * /{waba-id}/message_templates?name=…&hsm_id=…`, only this language), then it is marked DELETED,
 * never removed: sent messages and broadcasts name it. A template with no Meta behind it (the
 * sandbox's, the team-wide demo ones) is only marked. Deleting a deleted one changes nothing.
 */
export async function deleteTemplate({ ctx, input }: { ctx: AuthContext; input: { templateId: string } }) {
  const db = await getDb();
  const template = /^[A-Za-z0-9_.-]{1,64}$/.test(input.templateId)
    ? await findTemplateByApiId(db, { teamId: ctx.teamId, apiId: input.templateId })
    : undefined;
  if (!template) throw ApiError.notFound(TEMPLATE_NOT_FOUND);
  const number = template.waNumberId ? await findNumberById(db, { teamId: ctx.teamId, id: template.waNumberId }) : undefined;
  if (template.status === "DELETED") return toTemplateListItem(template, number?.number ?? null);
  if (number?.provider === "cloud_api" && number.businessAccountId) {
    const deleted = await deleteGraphTemplate(graphSettings(), withSecrets(number), { name: template.name, id: template.externalId });
    if (!deleted.ok) throw refusalError(deleted, metaDeleteRefused);
  }
  const at = new Date();
  return transaction(async (tx) => {
    const current = await lockTemplateForMeta(tx, {
      teamId: ctx.teamId,
      waNumberIds: template.waNumberId ? [template.waNumberId] : [],
      metaId: template.externalId,
      name: template.name,
      language: template.language,
    });
    if (!current || current.id !== template.id) throw ApiError.notFound(TEMPLATE_NOT_FOUND);
    if (current.status === "DELETED") return toTemplateListItem(current, number?.number ?? null);
    const after = await updateTemplateFromMeta(tx, {
      teamId: ctx.teamId,
      id: template.id,
      values: { status: "DELETED", rejectedReason: "NONE", statusChangedAt: at, externalId: current.externalId },
    });
    await recordTemplateChange(tx, {
      teamId: ctx.teamId,
      after,
      change: { field: "status", previous: current.status, value: "DELETED", reason: null },
      meta: { at, raw: { deleted: true }, source: "editor" },
    });
    await recordCallerAudit(tx, ctx, {
      action: "template.deleted",
      target: { kind: "template", id: after.externalId ?? after.id, name: `${after.name} (${after.language})` },
      before: { status: current.status },
      after: { status: "DELETED" },
    });
    return toTemplateListItem(after, number?.number ?? null);
  });
}

/**
 * The sandbox's review: templates submitted for a sandbox number, PENDING for
 * SANDBOX_TEMPLATE_REVIEW_MS, are approved exactly as Meta's `message_template_status_update`
 * webhook approves one (applyTemplateUpdate: the history row, the `template.updated` event). The
 * state is the template row itself (PENDING since its submission time), so a restart loses
 * nothing: whichever worker looks next approves what is due, and a second approval of the same
 * template changes nothing. Returns how many were approved.
 */
export async function approveDueSandboxTemplates(teamIds?: number[], now = Date.now()): Promise<number> {
  const due = await listDueSandboxReviews(await getDb(), { before: new Date(now - config.sandboxTemplateReviewMs), teamIds, limit: 50 });
  let approved = 0;
  for (const t of due) {
    const outcome = await transaction((tx) =>
      applyTemplateUpdate(
        tx,
        { teamId: t.teamId, waNumberIds: [t.waNumberId] },
        {
          kind: "template_status",
          template: { metaId: t.externalId, name: t.name, language: t.language },
          event: "APPROVED",
          reason: null,
        },
        { at: new Date(now), raw: { sandbox_review: true } },
      ),
    );
    if (outcome === "applied") approved++;
  }
  return approved;
}
