import type { InboundMessage, StatusUpdate, WebhookChange } from "../types";

/* eslint-disable @typescript-eslint/no-explicit-any -- the Meta envelope is untrusted JSON, read defensively */
const str = (v: unknown): string => (v === undefined || v === null ? "" : String(v));
const optStr = (v: unknown): string | null => (v === undefined || v === null ? null : String(v));

/**
 * Every change of a signed `whatsapp_business_account` envelope (all entries, all changes, all
 * messages and statuses), normalized. Changes other than `messages` carry nothing for us.
 */
export function parseEnvelope(body: any): WebhookChange[] {
  const out: WebhookChange[] = [];
  if (!body || body.object !== "whatsapp_business_account" || !Array.isArray(body.entry)) return out;
  for (const entry of body.entry) {
    for (const change of Array.isArray(entry?.changes) ? entry.changes : []) {
      const value = change?.value;
      const phoneNumberId = optStr(value?.metadata?.phone_number_id);
      if (!phoneNumberId || (change.field && change.field !== "messages")) continue;
      const contacts: any[] = Array.isArray(value.contacts) ? value.contacts : [];
      const messages = (Array.isArray(value.messages) ? value.messages : [])
        .map((m: any) => normalizeMessage(m, contacts))
        .filter((m: InboundMessage | null): m is InboundMessage => m !== null);
      const statuses = (Array.isArray(value.statuses) ? value.statuses : [])
        .map(normalizeStatus)
        .filter((s: StatusUpdate | null): s is StatusUpdate => s !== null);
      out.push({ phoneNumberId, messages, statuses });
    }
  }
  return out;
}

function normalizeStatus(s: any): StatusUpdate | null {
  if (!s?.id || !s?.status) return null;
  const e = Array.isArray(s.errors) ? s.errors[0] : undefined;
  return {
    providerMessageId: String(s.id),
    status: String(s.status),
    timestamp: Number(s.timestamp) || Math.floor(Date.now() / 1000),
    error: e ? { code: typeof e.code === "number" ? e.code : null, title: str(e.title || e.message), details: optStr(e.error_data?.details ?? e.message) } : null,
    callbackData: optStr(s.biz_opaque_callback_data),
    raw: s,
  };
}

function normalizeMessage(m: any, contacts: any[]): InboundMessage | null {
  if (!m?.id) return null;
  const from = optStr(m.from);
  const userId = optStr(m.from_user_id);
  const contact = contacts.find((c) => (from && c?.wa_id === from) || (userId && c?.user_id === userId)) ?? contacts[0];
  const { type, payload, mediaId } = payloadOf(m);
  return {
    providerMessageId: String(m.id),
    from: from ?? optStr(contact?.wa_id),
    userId: userId ?? optStr(contact?.user_id),
    profileName: optStr(contact?.profile?.name),
    timestamp: Number(m.timestamp) || Math.floor(Date.now() / 1000),
    type,
    payload,
    contextId: optStr(m.context?.id),
    providerMediaId: mediaId,
  };
}

type Normalized = { type: string; payload: Record<string, unknown> | unknown[]; mediaId: string | null };

/** The contract's 2.5 payload for each Cloud API message type; `url` of media is filled in by the ingest. */
function payloadOf(m: any): Normalized {
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
      return { type: "contacts", payload: Array.isArray(m.contacts) ? m.contacts : [], mediaId: null };
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

function firstError(m: any) {
  const e = Array.isArray(m.errors) ? m.errors[0] ?? {} : {};
  return {
    code: typeof e.code === "number" ? e.code : null,
    title: str(e.title),
    message: str(e.message || e.title),
    details: str(e.error_data?.details ?? e.details),
  };
}

function referralOf(r: any) {
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

function mediaPayload(type: string, media: any): Normalized {
  const id = str(media.id);
  const base: Record<string, unknown> = { url: null, contentType: str(media.mime_type), id };
  if (type !== "audio") base.sha256 = str(media.sha256);
  if (type === "image" || type === "video" || type === "document") base.caption = str(media.caption);
  if (type === "video" || type === "document") base.filename = str(media.filename);
  if (type === "sticker") base.animated = media.animated === true;
  return { type, payload: base, mediaId: id || null };
}

function interactivePayload(i: any): Normalized {
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
          expiration_timestamp: r.expiration_timestamp === undefined || r.expiration_timestamp === null ? "" : String(r.expiration_timestamp),
          response_source: str(r.response_source),
        },
        mediaId: null,
      };
    }
    default:
      return {
        type: "unknown",
        payload: { code: null, title: "Unsupported interactive type", message: `interactive ${str(i.type)}`, error_data: { details: JSON.stringify(i) } },
        mediaId: null,
      };
  }
}
