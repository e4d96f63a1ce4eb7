/**
 * Limits the API enforces and the dashboard shows, from one place. Imported by server and browser
 * code alike, so this module imports nothing.
 */

/** A contact carries at most this many labels (spec 4.3). */
export const MAX_LABELS_PER_CONTACT = 5;

const MB = 1024 * 1024;

/** What uploads accept, by sniffed content (never by name): type → extensions and size cap. */
export type AllowedType = {
  mime: string;
  extensions: readonly string[];
  maxBytes: number;
  label: string;
  /** What content sniffing reports for it, when not `mime` itself. */
  sniffedAs?: string;
};

export const ALLOWED_TYPES: readonly AllowedType[] = [
  { mime: "image/jpeg", extensions: ["jpg", "jpeg"], maxBytes: 5 * MB, label: "5 MB" },
  { mime: "image/png", extensions: ["png"], maxBytes: 5 * MB, label: "5 MB" },
  { mime: "video/mp4", extensions: ["mp4"], maxBytes: 16 * MB, label: "16 MB" },
  // Cloud API takes documents up to 100 MB; they are held in memory here, so 16 MB.
  { mime: "application/pdf", extensions: ["pdf"], maxBytes: 16 * MB, label: "16 MB" },
  // Free-form replies only (no template header takes them): voice notes and stickers, at the
  // Cloud API's own caps (audio 16 MB; an animated sticker 500 KB).
  // WhatsApp plays OGG with the Opus codec only.
  { mime: "audio/ogg", extensions: ["ogg"], maxBytes: 16 * MB, label: "16 MB", sniffedAs: "audio/ogg; codecs=opus" },
  { mime: "audio/mpeg", extensions: ["mp3"], maxBytes: 16 * MB, label: "16 MB" },
  { mime: "image/webp", extensions: ["webp"], maxBytes: 500 * 1024, label: "500 KB" },
];

export type MediaHeaderFormat = "IMAGE" | "DOCUMENT" | "VIDEO";

/** Extensions a media header accepts (spec 4.1, media_path rule 1). */
export const EXTENSIONS_BY_FORMAT: Record<MediaHeaderFormat, readonly string[]> = {
  DOCUMENT: ["pdf"],
  IMAGE: ["jpg", "jpeg", "png"],
  VIDEO: ["mp4"],
};

/** The upload types a media header accepts, each with its size cap. */
export function allowedTypesFor(format: MediaHeaderFormat): AllowedType[] {
  const exts = EXTENSIONS_BY_FORMAT[format];
  return ALLOWED_TYPES.filter((t) => t.extensions.some((e) => exts.includes(e)));
}

/** Media types of a free-form reply (POST /api/v1/messages/{channel}/send). */
export type ReplyMediaType = "image" | "video" | "audio" | "document" | "sticker";

/** Extensions each reply media type accepts (the upload's own, as for template headers). */
export const EXTENSIONS_BY_REPLY_TYPE: Record<ReplyMediaType, readonly string[]> = {
  image: EXTENSIONS_BY_FORMAT.IMAGE,
  video: EXTENSIONS_BY_FORMAT.VIDEO,
  document: EXTENSIONS_BY_FORMAT.DOCUMENT,
  audio: ["ogg", "mp3"],
  sticker: ["webp"],
};
