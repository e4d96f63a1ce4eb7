import type { ChannelNumber, SendOutcome } from "../types";
import { graphFetch, type GraphSettings } from "./client";

type GraphFailure = Extract<SendOutcome, { ok: false }>;

/**
 * Meta's refusal in words. A template Meta refuses (a name in use, a sample it does not accept…)
 * comes with `error_user_title` and `error_user_msg`, written for the person who wrote it
 * (./errors.ts); the details, then the plain `message` ("Invalid parameter"), are the fallback.
 */
export type TemplateRefusal = { ok: false; retryable: boolean; error: GraphFailure["error"]; userMessage: string };

function refusal(res: GraphFailure): TemplateRefusal {
  const userMessage = res.meta?.userMessage || res.error.details || res.error.title;
  return { ok: false, retryable: res.retryable, error: res.error, userMessage: userMessage.slice(0, 1000) };
}

/**
 * `POST /{waba-id}/message_templates` (Meta: "Create message templates"): answers the new
 * template's `id`, its `status` (PENDING while Meta reviews it, or APPROVED/REJECTED at once) and
 * `category` (Meta may change the one asked for).
 */
export async function createGraphTemplate(
  graph: GraphSettings,
  number: ChannelNumber,
  body: unknown,
): Promise<{ ok: true; id: string; status: string; category: string | null } | TemplateRefusal> {
  const res = await graphFetch<{ id?: unknown; status?: unknown; category?: unknown }>(
    graph,
    number,
    `${encodeURIComponent(number.businessAccountId ?? "")}/message_templates`,
    { json: body },
  );
  if (!res.ok) return refusal(res);
  const id = typeof res.body?.id === "string" || typeof res.body?.id === "number" ? String(res.body.id) : "";
  if (!id) return refusal({ ok: false, retryable: false, error: { code: null, title: "Graph API answered without a template id" } });
  const status = typeof res.body.status === "string" ? res.body.status.toUpperCase() : "PENDING";
  const category = typeof res.body.category === "string" ? res.body.category.toUpperCase() : null;
  return { ok: true, id, status, category };
}

/**
 * `DELETE /{waba-id}/message_templates?name=…` (Meta: "Delete templates by name"): every
 * language of that name; `hsm_id` narrows it to the one template when its id is known.
 */
export async function deleteGraphTemplate(
  graph: GraphSettings,
  number: ChannelNumber,
  template: { name: string; id: string | null },
): Promise<{ ok: true } | TemplateRefusal> {
  const query = new URLSearchParams({ name: template.name });
  if (template.id) query.set("hsm_id", template.id);
  const res = await graphFetch<{ success?: unknown }>(
    graph,
    number,
    `${encodeURIComponent(number.businessAccountId ?? "")}/message_templates?${query}`,
    { method: "DELETE" },
  );
  if (!res.ok) return refusal(res);
  return { ok: true };
}
