import { placeholderKeys } from "@/lib/templates/schemas";
import { dynamicUrlButtons } from "@/lib/templates/params";
import type { AudienceRule, CreateBroadcastInput, Template } from "@/lib/api-client/types";
import type { MessageKey } from "@/lib/i18n";

/**
 * The new-broadcast wizard's draft: what the agent has chosen so far, the request it becomes, and
 * which step shows which field (a server 422 names fields; the wizard marks their steps).
 */
export const STEPS = ["audience", "template", "params", "delivery", "review"] as const;
export type Step = (typeof STEPS)[number];

/** A contact column (filled per recipient by the server) or a fixed text. */
export type ParamSource = "fixed" | "name" | "customer_id" | "number";
export const PARAM_SOURCES: ParamSource[] = ["fixed", "name", "customer_id", "number"];
export type ParamDraft = { key: string; source: ParamSource; text: string };
/** The value of a URL button with a variable: `index` is its position in BUTTONS; `label`/`url` for the form. */
export type ButtonDraft = ParamDraft & { index: number; label: string; url: string };

export type Draft = {
  name: string;
  wa_number: string;
  template_name: string;
  language: string;
  header: ParamDraft | null;
  body: ParamDraft[];
  buttons: ButtonDraft[];
  media_path: string | null;
  media_name: string | null;
  audience: AudienceRule;
  response_handler: "CAMPAIGN" | "CHATBOT";
  campaign_id: string;
  bot_id: string;
  sent_group: string;
  when: "now" | "later";
  /** The `datetime-local` input's value, in the browser's zone. */
  scheduled_local: string;
};

export const emptyDraft: Draft = {
  name: "",
  wa_number: "",
  template_name: "",
  language: "",
  header: null,
  body: [],
  buttons: [],
  media_path: null,
  media_name: null,
  audience: { labels_any: [], labels_all: [], labels_exclude: [] },
  response_handler: "CAMPAIGN",
  campaign_id: "",
  bot_id: "",
  sent_group: "",
  when: "now",
  scheduled_local: "",
};

export type Errors = Record<string, string>;

export function templateParts(tp: Template | undefined) {
  const header = tp?.components.find((c) => c.type === "HEADER");
  const body = tp?.components.find((c) => c.type === "BODY");
  return {
    header,
    headerKeys: header?.format === "TEXT" ? placeholderKeys(header.text) : [],
    bodyKeys: placeholderKeys(body && "text" in body ? body.text : undefined),
    mediaFormat: header && header.format !== "TEXT" ? header.format : null,
  };
}

/** A fresh draft's template part: one empty fixed-text parameter per placeholder. */
export function withTemplate(d: Draft, tp: Template | undefined): Draft {
  const { headerKeys, bodyKeys } = templateParts(tp);
  return {
    ...d,
    template_name: tp?.name ?? "",
    language: tp?.language ?? "",
    header: headerKeys.length ? { key: headerKeys[0], source: "fixed", text: "" } : null,
    body: bodyKeys.map((key) => ({ key, source: "fixed", text: "" })),
    buttons: (tp ? dynamicUrlButtons(tp.components) : []).map((b) => ({
      key: placeholderKeys(b.url)[0] ?? "1",
      index: b.index,
      label: b.text,
      url: b.url,
      source: "fixed",
      text: "",
    })),
    media_path: null,
    media_name: null,
  };
}

export function paramValue(p: ParamDraft): string {
  return p.source === "fixed" ? p.text : `{{${p.source}}}`;
}

/** What the preview shows for a parameter: its text, or a stand-in for the contact's column. */
export function previewValue(p: ParamDraft, t: (k: MessageKey) => string): string {
  return p.source === "fixed" ? p.text : t(`bc.sample.${p.source}`);
}

export function toRequest(d: Draft): CreateBroadcastInput {
  return {
    name: d.name.trim(),
    wa_number: d.wa_number,
    template_name: d.template_name,
    language: d.language || null,
    header_param: d.header ? { key: d.header.key, value: paramValue(d.header) } : null,
    body_params: d.body.map((p) => ({ key: p.key, value: paramValue(p) })),
    ...(d.buttons.length ? { button_params: d.buttons.map((b) => ({ index: b.index, value: paramValue(b) })) } : {}),
    media_path: d.media_path,
    audience: d.audience,
    response_handler: d.response_handler,
    campaign_id: d.response_handler === "CAMPAIGN" && d.campaign_id ? Number(d.campaign_id) : null,
    bot_id: d.response_handler === "CHATBOT" && d.bot_id ? Number(d.bot_id) : null,
    sent_group: d.sent_group.trim() || null,
    scheduled_at: d.when === "later" && d.scheduled_local ? new Date(d.scheduled_local).toISOString() : null,
  };
}

/** The step that shows a field the server names (`body_params.1.value` → params). */
export function stepOfField(field: string): Step | null {
  if (field.startsWith("audience")) return "audience";
  if (["wa_number", "template_name", "language"].includes(field)) return "template";
  if (field.startsWith("header_param") || field.startsWith("body_params") || field.startsWith("button_params") || field === "media_path")
    return "params";
  if (["name", "response_handler", "campaign_id", "bot_id", "sent_group", "scheduled_at"].includes(field)) return "delivery";
  return null;
}

/**
 * The browser's own checks before leaving a step: what must be chosen to go on. The server
 * checks everything again and its answers land on the same fields.
 */
export function checkStep(step: Step, d: Draft, t: (k: MessageKey) => string): Errors {
  const e: Errors = {};
  if (step === "audience" && d.audience.labels_any.length === 0 && d.audience.labels_all.length === 0)
    e["audience.labels_any"] = t("bc.audience.pick");
  if (step === "template" && !d.template_name) e.template_name = t("bc.templateRequired");
  if (step === "params") {
    if (d.header && d.header.source === "fixed" && !d.header.text.trim()) e["header_param.value"] = t("bc.paramRequired");
    d.body.forEach((p, i) => {
      if (p.source === "fixed" && !p.text.trim()) e[`body_params.${i}.value`] = t("bc.paramRequired");
    });
    d.buttons.forEach((b, i) => {
      if (b.source === "fixed" && !b.text.trim()) e[`button_params.${i}.value`] = t("bc.paramRequired");
    });
  }
  if (step === "delivery") {
    if (!d.name.trim()) e.name = t("bc.nameRequired");
    if (d.when === "later" && !d.scheduled_local) e.scheduled_at = t("bc.schedule.required");
  }
  return e;
}
