import { z } from "zod";
import { storableJson, storableText } from "@/lib/http/storable";
import { itemLimitProblem } from "@/lib/http/json-limits";

/*
 * The WhatsApp Business Account's own webhook fields: its templates (status, quality, category)
 * and its numbers' health (quality rating and messaging limit, account events). Meta posts them on
 * the same endpoint as messages, in the same signed envelope, but the entry's `id` is the business
 * account and the value carries no `metadata.phone_number_id` (docs/features/templates-and-number-health.md).
 * Each change is parsed with a loose zod schema (fields we do not read pass through); one that
 * fails is set aside with its reason, never the cause of a 500 nor of the loss of its neighbours.
 */

export const ACCOUNT_FIELDS = [
  "message_template_status_update",
  "message_template_quality_update",
  "template_category_update",
  "phone_number_quality_update",
  "account_update",
] as const;
export type AccountField = (typeof ACCOUNT_FIELDS)[number];

/** What Meta sends as text: strings, and numbers where an id may come as either. */
const text = z
  .union([z.string(), z.number()])
  .transform((v) => storableText(String(v)).trim())
  .nullish();
const word = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[A-Za-z0-9_]+$/, "must be an upper-case word such as APPROVED")
  .transform((v) => v.toUpperCase());

/** How a template is named: Meta's id and/or name and language (one of the two is required). */
const templateRef = {
  message_template_id: text,
  message_template_name: text,
  message_template_language: text,
};

const statusValue = z.looseObject({
  ...templateRef,
  event: word,
  reason: text,
  message_template_category: text,
  other_info: z.looseObject({ title: text, description: text }).nullish(),
});
const qualityValue = z.looseObject({ ...templateRef, previous_quality_score: word.nullish(), new_quality_score: word });
const categoryValue = z.looseObject({
  ...templateRef,
  previous_category: word.nullish(),
  new_category: word,
  correct_category: word.nullish(),
  category_update_timestamp: z.unknown().optional(),
});
const numberQualityValue = z.looseObject({
  display_phone_number: text,
  event: word,
  current_limit: word.nullish(),
  old_limit: word.nullish(),
  max_daily_conversations_per_business: word.nullish(),
});
const accountValue = z.looseObject({ phone_number: text, event: word });

/** A template as a webhook names it. Languages come as `en_US` (sometimes `en-US`): stored with `_`. */
export type TemplateRef = { metaId: string | null; name: string | null; language: string | null };

export type AccountUpdate =
  | { kind: "template_status"; template: TemplateRef; event: string; reason: string | null }
  | { kind: "template_quality"; template: TemplateRef; previous: string | null; quality: string }
  | { kind: "template_category"; template: TemplateRef; previous: string | null; category: string; pending: string | null }
  | { kind: "number_quality"; displayNumber: string | null; event: string; tier: string | null; previousTier: string | null }
  | { kind: "account"; displayNumber: string | null; event: string };

/**
 * One business-account change: the account (`wabaId`), Meta's time of the change (the entry's
 * `time`, seconds; null when absent or absurd), and either what it says or why it was set aside.
 */
export type ParsedAccountChange = {
  field: AccountField;
  wabaId: string;
  metaAt: number | null;
  raw: unknown;
} & ({ update: AccountUpdate; rejected?: undefined } | { update?: undefined; rejected: string });

const reasonOf = (where: string, error: z.ZodError) =>
  `${where}: ${error.issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join(".") || "(root)"} ${i.message}`)
    .join("; ")}`;

const MIN_TIMESTAMP = Date.UTC(2009, 0, 1) / 1000;

function metaTime(v: unknown, nowSeconds: number): number | null {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() ? Number(v) : NaN;
  return Number.isFinite(n) && n >= MIN_TIMESTAMP && n <= nowSeconds + 86_400 ? Math.floor(n) : null;
}

const digits = (v: string | null | undefined) => (v ? v.replace(/\D/g, "") || null : null);

function templateOf(v: {
  message_template_id?: string | null;
  message_template_name?: string | null;
  message_template_language?: string | null;
}): TemplateRef | string {
  const metaId = v.message_template_id || null;
  const name = v.message_template_name || null;
  const language = v.message_template_language ? v.message_template_language.replace("-", "_") : null;
  if (!metaId && !(name && language)) return "no message_template_id, nor message_template_name and message_template_language";
  return { metaId, name, language };
}

/** One change of an ACCOUNT_FIELDS field, parsed (strings made storable first), or set aside with its reason. */
export function parseAccountChange(
  field: AccountField,
  entryId: unknown,
  entryTime: unknown,
  value: unknown,
  raw: unknown,
  nowSeconds: number,
): ParsedAccountChange {
  const wabaId = entryId === undefined || entryId === null ? "" : storableText(String(entryId)).trim();
  const base = { field, wabaId, metaAt: metaTime(entryTime, nowSeconds), raw };
  const reject = (reason: string): ParsedAccountChange => ({ ...base, rejected: `${field}: ${reason}` });
  if (!wabaId) return reject("entry.id (the business account) is missing");
  const problem = itemLimitProblem(field, raw);
  if (problem) return { ...base, rejected: problem };
  const clean = storableJson(value);
  switch (field) {
    case "message_template_status_update": {
      const v = statusValue.safeParse(clean);
      if (!v.success) return { ...base, rejected: reasonOf(field, v.error) };
      const template = templateOf(v.data);
      if (typeof template === "string") return reject(template);
      // A pause or a lock explains itself in other_info when `reason` says nothing.
      const said = v.data.reason && v.data.reason.toUpperCase() !== "NONE" ? v.data.reason : null;
      const reason = said ?? (v.data.other_info?.description || v.data.other_info?.title || null);
      return { ...base, update: { kind: "template_status", template, event: v.data.event, reason: reason?.slice(0, 1000) ?? null } };
    }
    case "message_template_quality_update": {
      const v = qualityValue.safeParse(clean);
      if (!v.success) return { ...base, rejected: reasonOf(field, v.error) };
      const template = templateOf(v.data);
      if (typeof template === "string") return reject(template);
      return {
        ...base,
        update: { kind: "template_quality", template, previous: v.data.previous_quality_score ?? null, quality: v.data.new_quality_score },
      };
    }
    case "template_category_update": {
      const v = categoryValue.safeParse(clean);
      if (!v.success) return { ...base, rejected: reasonOf(field, v.error) };
      const template = templateOf(v.data);
      if (typeof template === "string") return reject(template);
      // An impending change names the category to come (`correct_category`) and the current one
      // (`new_category`); a completed change names the previous and the new category.
      return {
        ...base,
        update: {
          kind: "template_category",
          template,
          previous: v.data.previous_category ?? null,
          category: v.data.new_category,
          pending: v.data.correct_category ?? null,
        },
      };
    }
    case "phone_number_quality_update": {
      const v = numberQualityValue.safeParse(clean);
      if (!v.success) return { ...base, rejected: reasonOf(field, v.error) };
      return {
        ...base,
        update: {
          kind: "number_quality",
          displayNumber: digits(v.data.display_phone_number),
          event: v.data.event,
          tier: v.data.max_daily_conversations_per_business ?? v.data.current_limit ?? null,
          previousTier: v.data.old_limit ?? null,
        },
      };
    }
    case "account_update": {
      const v = accountValue.safeParse(clean);
      if (!v.success) return { ...base, rejected: reasonOf(field, v.error) };
      return { ...base, update: { kind: "account", displayNumber: digits(v.data.phone_number), event: v.data.event } };
    }
  }
}
