import { z } from "zod";
import { storableJson, storableText } from "@/lib/http/storable";
import { itemLimitProblem } from "@/lib/http/json-limits";
import type { InboundMessage, StatusUpdate } from "../types";
import { ACCOUNT_FIELDS, parseAccountChange, type AccountField, type ParsedAccountChange } from "./account-webhook";

/*
 * Meta's webhook envelope is untrusted JSON: every level is parsed with a zod schema before it is
 * read. The schemas are loose (z.looseObject): fields and message types we do not know pass
 * through untouched. An item that fails its schema is set aside with its reason (a dead letter),
 * never the cause of a 500 nor of the loss of its neighbours.
 */

/** What the contract stores as text: strings, and numbers or booleans Meta may send instead. */
const text = z.union([z.string(), z.number(), z.boolean()]).nullish();
const id = z.union([z.string().min(1), z.number()]).transform(String);

const errorSchema = z.looseObject({
  code: z.unknown().optional(),
  title: text,
  message: text,
  details: text,
  error_data: z.looseObject({ details: text }).nullish(),
});
const mediaSchema = z.looseObject({
  id: text,
  mime_type: text,
  sha256: text,
  caption: text,
  filename: text,
  animated: z.unknown().optional(),
});
const referralSchema = z.looseObject({
  source_url: text,
  source_id: text,
  source_type: text,
  headline: text,
  body: text,
  media_type: text,
  image_url: text,
  video_url: text,
  thumbnail_url: text,
  ctwa_clid: text,
});

export const messageSchema = z.looseObject({
  id,
  from: text,
  from_user_id: text,
  timestamp: text,
  type: text,
  context: z.looseObject({ id: text }).nullish(),
  text: z.looseObject({ body: text }).nullish(),
  referral: referralSchema.nullish(),
  image: mediaSchema.nullish(),
  audio: mediaSchema.nullish(),
  video: mediaSchema.nullish(),
  document: mediaSchema.nullish(),
  sticker: mediaSchema.nullish(),
  location: z.looseObject({ latitude: text, longitude: text, name: text, address: text }).nullish(),
  contacts: z.array(z.unknown()).nullish(),
  button: z.looseObject({ text, payload: text }).nullish(),
  interactive: z
    .looseObject({
      type: text,
      list_reply: z.looseObject({ id: text, title: text, description: text }).nullish(),
      button_reply: z.looseObject({ id: text, title: text }).nullish(),
      call_permission_reply: z
        .looseObject({ response: text, is_permanent: z.unknown().optional(), expiration_timestamp: text, response_source: text })
        .nullish(),
      nfm_reply: z.looseObject({ name: text, body: text, response_json: text }).nullish(),
    })
    .nullish(),
  system: z.looseObject({ body: text, new_wa_id: text, wa_id: text, type: text }).nullish(),
  reaction: z.looseObject({ message_id: text, emoji: text }).nullish(),
  order: z.looseObject({ catalog_id: text, text: text, product_items: z.array(z.unknown()).nullish() }).nullish(),
  errors: z.array(errorSchema).nullish(),
});
type CloudMessage = z.infer<typeof messageSchema>;

export const statusSchema = z.looseObject({ id, status: z.string().min(1), timestamp: text, errors: z.array(errorSchema).nullish() });
type CloudStatus = z.infer<typeof statusSchema>;

const contactSchema = z.looseObject({ wa_id: text, user_id: text, profile: z.looseObject({ name: text }).nullish() });
type CloudContact = z.infer<typeof contactSchema>;

const envelopeSchema = z.looseObject({ object: z.literal("whatsapp_business_account"), entry: z.array(z.unknown()) });
const entrySchema = z.looseObject({ id: text, time: z.unknown().optional(), changes: z.array(z.unknown()) });
const changeHeadSchema = z.looseObject({ field: z.string().nullish(), value: z.unknown() });
const messagesValueSchema = z.looseObject({
  metadata: z.looseObject({ phone_number_id: id }),
  contacts: z.array(z.unknown()).nullish(),
  messages: z.array(z.unknown()).nullish(),
  statuses: z.array(z.unknown()).nullish(),
});

/** An item set aside: why, and the item's JSON exactly as received. */
export type Rejected = { reason: string; raw: unknown; kind?: "rejected" | "clamped" };
export type ParsedMessage = { msg: InboundMessage; raw: unknown; clampedTimestamp?: unknown };
export type ParsedChange = {
  phoneNumberId: string;
  messages: ParsedMessage[];
  statuses: { update: StatusUpdate; raw: unknown }[];
  /** Items of this change that failed their schema (stored against its number when it is ours). */
  rejected: Rejected[];
};

/** Earliest accepted message time (WhatsApp did not exist before 2009) and the allowed clock skew. */
const MIN_TIMESTAMP = Date.UTC(2009, 0, 1) / 1000;
const MAX_SKEW_SECONDS = 86_400;

/**
 * A provider timestamp in seconds, or null when it is absent, not a number or outside
 * [2009-01-01, now + 1 day]: the caller then uses the receipt time.
 */
export function saneTimestamp(v: unknown, nowSeconds: number): number | null {
  const n = typeof v === "number" ? v : typeof v === "string" && v.trim() ? Number(v) : NaN;
  if (!Number.isFinite(n) || n < MIN_TIMESTAMP || n > nowSeconds + MAX_SKEW_SECONDS) return null;
  return Math.floor(n);
}

const reasonOf = (where: string, error: z.ZodError) =>
  `${where}: ${error.issues
    .slice(0, 3)
    .map((i) => `${i.path.map(String).join(".") || "(root)"} ${i.message}`)
    .join("; ")}`;

/**
 * Every change of a signed `whatsapp_business_account` envelope (all entries, all changes, all
 * messages and statuses), normalized; changes of other fields carry nothing for us. Strings are
 * made storable first (NUL removed, lone surrogates → U+FFFD). `rejected` holds what failed its
 * schema above the level of a change with a known number (the envelope itself, an entry, a change).
 */
export function parseEnvelope(
  body: unknown,
  nowSeconds = Math.floor(Date.now() / 1000),
): { changes: ParsedChange[]; accountChanges: ParsedAccountChange[]; rejected: Rejected[] } {
  const changes: ParsedChange[] = [];
  const accountChanges: ParsedAccountChange[] = [];
  const rejected: Rejected[] = [];
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) return { changes, accountChanges, rejected: [{ reason: reasonOf("envelope", envelope.error), raw: body }] };
  for (const rawEntry of envelope.data.entry) {
    const entry = entrySchema.safeParse(rawEntry);
    if (!entry.success) {
      rejected.push({ reason: reasonOf("entry", entry.error), raw: rawEntry });
      continue;
    }
    for (const rawChange of entry.data.changes) {
      const head = changeHeadSchema.safeParse(rawChange);
      if (!head.success) {
        rejected.push({ reason: reasonOf("change", head.error), raw: rawChange });
        continue;
      }
      // The business account's own fields (templates, number health): the entry's id is the account.
      if (head.data.field && (ACCOUNT_FIELDS as readonly string[]).includes(head.data.field)) {
        accountChanges.push(
          parseAccountChange(head.data.field as AccountField, entry.data.id, entry.data.time, head.data.value, rawChange, nowSeconds),
        );
        continue;
      }
      if (head.data.field && head.data.field !== "messages") continue;
      const value = messagesValueSchema.safeParse(head.data.value);
      if (!value.success) {
        rejected.push({ reason: reasonOf("change", value.error), raw: rawChange });
        continue;
      }
      changes.push(parseChange(value.data, nowSeconds));
    }
  }
  return { changes, accountChanges, rejected };
}

function parseChange(value: z.infer<typeof messagesValueSchema>, nowSeconds: number): ParsedChange {
  const out: ParsedChange = { phoneNumberId: storableText(value.metadata.phone_number_id), messages: [], statuses: [], rejected: [] };
  const contacts: CloudContact[] = [];
  // An item too deep or too large for the walks below is set aside whole; its neighbours go on.
  const tooBig = (where: string, raw: unknown): boolean => {
    const problem = itemLimitProblem(where, raw);
    if (problem) out.rejected.push({ reason: problem, raw });
    return problem !== null;
  };
  for (const raw of value.contacts ?? []) {
    if (tooBig("contact", raw)) continue;
    const c = contactSchema.safeParse(storableJson(raw));
    if (c.success) contacts.push(c.data);
    else out.rejected.push({ reason: reasonOf("contact", c.error), raw });
  }
  for (const raw of value.messages ?? []) {
    if (tooBig("message", raw)) continue;
    const m = messageSchema.safeParse(storableJson(raw));
    if (!m.success) {
      out.rejected.push({ reason: reasonOf("message", m.error), raw });
      continue;
    }
    const timestamp = saneTimestamp(m.data.timestamp, nowSeconds);
    const parsed: ParsedMessage = { msg: normalizeMessage(m.data, contacts, timestamp ?? nowSeconds), raw };
    if (timestamp === null && m.data.timestamp !== undefined && m.data.timestamp !== null) parsed.clampedTimestamp = m.data.timestamp;
    out.messages.push(parsed);
  }
  for (const raw of value.statuses ?? []) {
    if (tooBig("status", raw)) continue;
    const s = statusSchema.safeParse(storableJson(raw));
    if (!s.success) {
      out.rejected.push({ reason: reasonOf("status", s.error), raw });
      continue;
    }
    out.statuses.push({ update: normalizeStatus(s.data, saneTimestamp(s.data.timestamp, nowSeconds) ?? nowSeconds), raw });
  }
  return out;
}

const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
const optStr = (v: unknown): string | null => (v === undefined || v === null ? null : String(v));

function normalizeStatus(s: CloudStatus, timestamp: number): StatusUpdate {
  const e = s.errors?.[0];
  return {
    providerMessageId: s.id,
    status: s.status,
    timestamp,
    error: e
      ? {
          code: typeof e.code === "number" ? e.code : null,
          title: str(e.title || e.message),
          details: optStr(e.error_data?.details ?? e.message),
        }
      : null,
    callbackData: optStr(s.biz_opaque_callback_data),
    raw: s,
  };
}

function normalizeMessage(m: CloudMessage, contacts: CloudContact[], timestamp: number): InboundMessage {
  const from = optStr(m.from);
  const userId = optStr(m.from_user_id);
  const contact = contacts.find((c) => (from && str(c.wa_id) === from) || (userId && str(c.user_id) === userId)) ?? contacts[0];
  const { type, payload, mediaId } = payloadOf(m);
  return {
    providerMessageId: m.id,
    from: from ?? optStr(contact?.wa_id),
    userId: userId ?? optStr(contact?.user_id),
    profileName: optStr(contact?.profile?.name),
    timestamp,
    type,
    payload,
    contextId: optStr(m.context?.id),
    providerMediaId: mediaId,
  };
}

type Normalized = { type: string; payload: Record<string, unknown> | unknown[]; mediaId: string | null };
type Media = z.infer<typeof mediaSchema>;
type CloudError = z.infer<typeof errorSchema>;

/** The contract's 2.5 payload for each Cloud API message type; `url` of media is filled in by the ingest. */
function payloadOf(m: CloudMessage): Normalized {
  const t = str(m.type);
  switch (t) {
    case "text": {
      const payload: Record<string, unknown> = { text: str(m.text?.body) };
      if (m.referral) payload.referral = referralOf(m.referral);
      return { type: "text", payload, mediaId: null };
    }
    case "image":
    case "audio":
    case "video":
    case "document":
    case "sticker":
      return mediaPayload(t, m[t] ?? {});
    case "location":
      return {
        type: "location",
        payload: {
          latitude: str(m.location?.latitude),
          longitude: str(m.location?.longitude),
          name: str(m.location?.name),
          address: str(m.location?.address),
        },
        mediaId: null,
      };
    case "contacts":
      return { type: "contacts", payload: m.contacts ?? [], mediaId: null };
    case "button":
      return { type: "button", payload: { text: str(m.button?.text), payload: str(m.button?.payload) }, mediaId: null };
    case "interactive":
      return interactivePayload(m.interactive ?? {});
    case "system":
      return {
        type: "system",
        payload: { body: str(m.system?.body), new_wa_id: str(m.system?.new_wa_id ?? m.system?.wa_id), type: str(m.system?.type) },
        mediaId: null,
      };
    case "reaction":
      // `emoji` is empty when the customer took their reaction back.
      return { type: "reaction", payload: { message_id: str(m.reaction?.message_id), emoji: str(m.reaction?.emoji) }, mediaId: null };
    case "order":
      return {
        type: "order",
        payload: {
          catalog_id: str(m.order?.catalog_id),
          text: str(m.order?.text),
          product_items: (m.order?.product_items ?? []).map((raw) => {
            const item = raw && typeof raw === "object" ? (raw as Record<string, unknown>) : {};
            return {
              product_retailer_id: str(item.product_retailer_id),
              quantity: str(item.quantity),
              item_price: str(item.item_price),
              currency: str(item.currency),
            };
          }),
        },
        mediaId: null,
      };
    case "unsupported": {
      const e = firstError(m);
      return { type: "unsupported", payload: { code: e.code, title: e.title, details: e.details }, mediaId: null };
    }
    default: {
      const e = firstError(m);
      return {
        type: "unknown",
        payload: { code: e.code, title: e.title, message: e.message, error_data: { details: e.details }, original_type: t },
        mediaId: null,
      };
    }
  }
}

function firstError(m: CloudMessage) {
  const e: CloudError = m.errors?.[0] ?? {};
  return {
    code: typeof e.code === "number" ? e.code : null,
    title: str(e.title),
    message: str(e.message || e.title),
    details: str(e.error_data?.details ?? e.details),
  };
}

function referralOf(r: z.infer<typeof referralSchema>) {
  return {
    source_url: str(r.source_url),
    source_id: str(r.source_id),
    source_type: str(r.source_type),
    headline: str(r.headline),
    body: str(r.body),
    media_type: str(r.media_type),
    image_url: str(r.image_url),
    video_url: str(r.video_url),
    thumbnail_url: str(r.thumbnail_url),
    ctwa_clid: str(r.ctwa_clid),
  };
}

function mediaPayload(type: string, media: Media): Normalized {
  const mediaId = str(media.id);
  const base: Record<string, unknown> = { url: null, contentType: str(media.mime_type), id: mediaId };
  if (type !== "audio") base.sha256 = str(media.sha256);
  if (type === "image" || type === "video" || type === "document") base.caption = str(media.caption);
  if (type === "video" || type === "document") base.filename = str(media.filename);
  if (type === "sticker") base.animated = media.animated === true;
  return { type, payload: base, mediaId: mediaId || null };
}

function interactivePayload(i: NonNullable<CloudMessage["interactive"]>): Normalized {
  switch (i.type) {
    case "list_reply":
      return {
        type: "list_reply",
        payload: { id: str(i.list_reply?.id), title: str(i.list_reply?.title), description: str(i.list_reply?.description) },
        mediaId: null,
      };
    case "button_reply":
      return { type: "button_reply", payload: { id: str(i.button_reply?.id), title: str(i.button_reply?.title) }, mediaId: null };
    case "call_permission_reply": {
      const r = i.call_permission_reply ?? {};
      return {
        type: "call_permission_reply",
        payload: {
          response: str(r.response),
          is_permanent: r.is_permanent === true,
          expiration_timestamp:
            r.expiration_timestamp === undefined || r.expiration_timestamp === null ? "" : String(r.expiration_timestamp),
          response_source: str(r.response_source),
        },
        mediaId: null,
      };
    }
    case "nfm_reply":
      // A WhatsApp Flow's answers: `response_json` is a JSON string, kept as sent (the viewer parses it).
      return {
        type: "nfm_reply",
        payload: { name: str(i.nfm_reply?.name), body: str(i.nfm_reply?.body), response_json: str(i.nfm_reply?.response_json) },
        mediaId: null,
      };
    default:
      return {
        type: "unknown",
        payload: {
          code: null,
          title: "Unsupported interactive type",
          message: `interactive ${str(i.type)}`,
          error_data: { details: JSON.stringify(i) },
        },
        mediaId: null,
      };
  }
}
