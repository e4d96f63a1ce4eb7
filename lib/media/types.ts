/** What uploads accept, by sniffed content (never by name): type → extensions and size cap. */
export type AllowedType = { mime: string; extensions: readonly string[]; maxBytes: number; label: string };

const MB = 1024 * 1024;

export const ALLOWED_TYPES: readonly AllowedType[] = [
  { mime: "image/jpeg", extensions: ["jpg", "jpeg"], maxBytes: 5 * MB, label: "5 MB" },
  { mime: "image/png", extensions: ["png"], maxBytes: 5 * MB, label: "5 MB" },
  { mime: "video/mp4", extensions: ["mp4"], maxBytes: 16 * MB, label: "16 MB" },
  // Cloud API takes documents up to 100 MB; they are held in memory here, so 16 MB.
  { mime: "application/pdf", extensions: ["pdf"], maxBytes: 16 * MB, label: "16 MB" },
];

export const MAX_UPLOAD_BYTES = Math.max(...ALLOWED_TYPES.map((t) => t.maxBytes));

/** Room for the multipart boundaries and part headers around the file. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export function allowedType(mime: string | undefined): AllowedType | undefined {
  return ALLOWED_TYPES.find((t) => t.mime === mime);
}
