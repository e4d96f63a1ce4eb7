/**
 * A short plain-text line for a message of any 2.5 type, for the conversation list. Payloads are
 * untrusted (stored as received): every field is checked before use and nothing here throws.
 */
const MAX = 120;

const str = (v: unknown): string => (typeof v === "string" ? v : "");
const obj = (v: unknown): Record<string, unknown> =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const clip = (s: string) => {
  const line = s.replace(/\s+/g, " ").trim();
  return line.length > MAX ? `${line.slice(0, MAX - 1)}…` : line;
};
const labelled = (label: string, text: string) => clip(text ? `${label} ${text}` : label);

/**
 * The fixed words of a preview, in Spanish: the API's `preview` is the same for every caller. The
 * dashboard puts its own language's words in their place (components/inbox/preview-text.ts).
 */
export const PREVIEW_WORDS = {
  image: "📷 Imagen",
  video: "🎥 Video",
  audio: "🎤 Audio",
  document: "📄 Documento",
  sticker: "Sticker",
  reaction: "Reacción",
  unsupported: "Mensaje no compatible",
  callsAccepted: "📞 Llamadas permitidas",
  callsRejected: "📞 Llamadas rechazadas",
} as const;

const MEDIA: Record<string, string> = {
  image: PREVIEW_WORDS.image,
  video: PREVIEW_WORDS.video,
  audio: PREVIEW_WORDS.audio,
  document: PREVIEW_WORDS.document,
  sticker: PREVIEW_WORDS.sticker,
};

export function messagePreview(type: string, payload: unknown): string {
  const p = obj(payload);
  if (type in MEDIA) return labelled(MEDIA[type], str(p.caption) || (type === "document" ? str(p.filename) : ""));
  switch (type) {
    case "text":
      return clip(str(p.text));
    case "template": {
      const components = Array.isArray(p.components) ? p.components : [];
      const body = components.map(obj).find((c) => str(c.type).toUpperCase() === "BODY");
      return labelled("📋", str(body?.text) || str(p.name));
    }
    case "location":
      return labelled(
        "📍",
        str(p.name) || str(p.address) || [p.latitude, p.longitude].filter((x) => typeof x === "number" || typeof x === "string").join(", "),
      );
    case "contacts": {
      const list = Array.isArray(payload) ? payload : [];
      const names = list.map((c) => str(obj(obj(c).name).formatted_name)).filter(Boolean);
      return labelled("👤", names.join(", "));
    }
    case "quick_reply":
      return clip(str(obj(p.content).text) || str(obj(p.content).header));
    case "list":
      return labelled("☰", str(p.body) || str(p.title));
    case "list_reply":
    case "button_reply":
      return clip(str(p.title));
    case "button":
      return clip(str(p.text));
    case "reaction":
      return labelled(PREVIEW_WORDS.reaction, str(p.emoji));
    case "system":
      return clip(str(p.body));
    case "call_permission_request":
      return clip(str(p.text));
    case "call_permission_reply":
      return str(p.response) === "accept" ? PREVIEW_WORDS.callsAccepted : PREVIEW_WORDS.callsRejected;
    case "unknown":
    case "unsupported":
      return PREVIEW_WORDS.unsupported;
    default:
      return clip(str(p.text) || str(p.body) || str(p.title) || type);
  }
}
