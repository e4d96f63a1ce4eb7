import path from "node:path";
import type { DbOrTx } from "@/db/client";
import type { ProviderError } from "@/db/schema";
import type { ChannelAdapter, ChannelNumber, OutboundMessage, OutboundTemplate } from "@/lib/channels/types";
import { metaButtonIndex, placeholderKeys } from "@/lib/templates/schemas";
import { findMediaByPath, findProviderMessageId, findTemplateForMessage, type MessageRow } from "./repo";

/** What a claimed message is sent as: a template, or a free-form reply (isFreeForm). */
export type Outbound = OutboundTemplate | OutboundMessage;
export const isFreeForm = (o: Outbound): o is OutboundMessage => "payload" in o;

type Built = { ok: true; message: Outbound } | { ok: false; retryable: boolean; error: ProviderError; retryAfterMs?: number };
type SendParams = {
  header_param?: { key: string; value: string } | null;
  body_params?: { key: string; value: string }[];
  button_params?: { index: number; value: string }[];
};

// Graph media ids live 30 days; re-uploading the same bytes for every send of a campaign is waste.
const uploaded = new Map<string, { id: string; at: number }>();
const UPLOAD_TTL_MS = 24 * 3600_000;

/**
 * Turns a queued message into the provider-neutral send: the template as stored when queued,
 * the send's header/body values in `{{n}}` order, quick-reply payloads, and the header
 * attachment uploaded through the adapter (an http(s) default attachment is sent by link).
 */
export type Lookups = {
  template(m: MessageRow): ReturnType<typeof findTemplateForMessage>;
  media(teamId: number, path: string): ReturnType<typeof findMediaByPath>;
  /** The wamid of the message a reply answers. */
  providerId(teamId: number, messageId: number): ReturnType<typeof findProviderMessageId>;
};

/**
 * Lookups shared by one claimed batch: a campaign's messages share a template (and usually an
 * attachment), so each is read once per batch rather than once per message.
 */
export function batchLookups(db: DbOrTx): Lookups {
  const templates = new Map<string, ReturnType<typeof findTemplateForMessage>>();
  const files = new Map<string, ReturnType<typeof findMediaByPath>>();
  const memo = <T>(map: Map<string, Promise<T>>, key: string, load: () => Promise<T>) => {
    let p = map.get(key);
    if (!p) map.set(key, (p = load()));
    return p;
  };
  return {
    template: (m) =>
      memo(templates, JSON.stringify([m.teamId, m.templateId, m.templateName, m.templateLanguage]), () => findTemplateForMessage(db, m)),
    media: (teamId, p) => memo(files, JSON.stringify([teamId, p]), () => findMediaByPath(db, { teamId, path: p })),
    providerId: (teamId, messageId) => findProviderMessageId(db, { teamId, messageId }),
  };
}

/** An uploaded file's provider id, uploaded once per number and content (then reused for a day). */
async function uploadOnce(adapter: ChannelAdapter, number: ChannelNumber, file: NonNullable<Awaited<ReturnType<typeof findMediaByPath>>>) {
  const key = `${number.id}:${file.sha256}`;
  let id = uploaded.get(key);
  if (!id || Date.now() - id.at > UPLOAD_TTL_MS) {
    const up = await adapter.uploadMedia(number, {
      bytes: file.content,
      contentType: file.contentType,
      filename: file.originalName || path.basename(file.path),
      sha256: file.sha256,
    });
    if (!up.ok) return up;
    id = { id: up.id, at: Date.now() };
    uploaded.set(key, id);
  }
  return { ok: true as const, id: id.id };
}

const MEDIA_TYPES = new Set(["image", "video", "audio", "document", "sticker"]);

/**
 * A free-form reply: its stored 2.5 payload as it is, its attachment uploaded through the
 * adapter, and the wamid of the message it answers (none when that one never got one).
 */
async function buildFreeForm(m: MessageRow, number: ChannelNumber, adapter: ChannelAdapter, lookups: Lookups): Promise<Built> {
  const out: OutboundMessage = {
    to: m.customerNumber ?? "",
    type: m.type,
    payload: m.payload ?? {},
    previewUrl: (m.sendParams as { preview_url?: boolean } | null)?.preview_url === true,
    contextWamid: m.replyToMessageId ? await lookups.providerId(m.teamId, m.replyToMessageId) : null,
    callbackData: m.updateId,
  };
  if (!out.to) return permanent("The contact has no phone number");
  if (MEDIA_TYPES.has(m.type)) {
    if (!m.mediaPath) return permanent("The message has no attachment");
    const file = await lookups.media(m.teamId, m.mediaPath);
    if (!file) return permanent(`Attachment ${m.mediaPath} no longer exists`);
    const up = await uploadOnce(adapter, number, file);
    if (!up.ok) return up;
    out.mediaId = up.id;
  }
  return { ok: true, message: out };
}

export async function buildOutbound(m: MessageRow, number: ChannelNumber, adapter: ChannelAdapter, lookups: Lookups): Promise<Built> {
  if (m.type !== "template") return buildFreeForm(m, number, adapter, lookups);
  const template = await lookups.template(m);
  if (!template) return permanent(`Template ${m.templateName ?? m.templateId} no longer exists`);
  const params = (m.sendParams ?? {}) as SendParams;
  const values = Object.fromEntries((params.body_params ?? []).map((p) => [p.key, p.value]));
  const out: OutboundTemplate = {
    to: m.customerNumber ?? "",
    name: template.name,
    language: m.templateLanguage ?? template.language,
    body: [],
    quickReplies: [],
    callbackData: m.updateId,
  };
  if (!out.to) return permanent("The contact has no phone number");
  for (const c of template.components) {
    if (c.type === "BODY") {
      out.body = placeholderKeys(c.text).map((k) => (/^\d+$/.test(k) ? { text: values[k] ?? "" } : { name: k, text: values[k] ?? "" }));
    } else if (c.type === "HEADER" && c.format === "TEXT" && params.header_param) {
      out.header = { kind: "text", text: params.header_param.value };
    } else if (c.type === "HEADER" && c.format !== "TEXT") {
      const source = m.mediaPath ?? template.defaultMediaPath;
      if (!source) return permanent("The template's media header has no attachment");
      if (/^https?:\/\//i.test(source)) {
        out.header = { kind: "media", format: c.format, link: source };
        continue;
      }
      const file = await lookups.media(m.teamId, source);
      if (!file) return permanent(`Attachment ${source} no longer exists`);
      const up = await uploadOnce(adapter, number, file);
      if (!up.ok) return up;
      out.header = { kind: "media", format: c.format, mediaId: up.id, filename: file.originalName || path.basename(file.path) };
    } else if (c.type === "BUTTONS") {
      const urlValues = new Map((params.button_params ?? []).map((b) => [b.index, b.value]));
      // Meta's numbering: a synced template's button stores its position there (metaButtonIndex).
      c.buttons.forEach((b, position) => {
        const index = metaButtonIndex(b, position);
        if (b.type === "QUICK_REPLY") out.quickReplies.push({ index, payload: b.payload ?? b.text });
        // A URL button with a variable goes out with the value sent for it (its link's {{1}}).
        const value = urlValues.get(index);
        if (b.type === "URL" && value !== undefined) (out.urlButtons ??= []).push({ index, text: value });
      });
    }
  }
  return { ok: true, message: out };
}

function permanent(title: string): Built {
  return { ok: false, retryable: false, error: { code: null, title } };
}
