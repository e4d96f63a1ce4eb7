import { ALLOWED_TYPES, type AllowedType } from "@/lib/limits";

/** What uploads accept (lib/limits.ts, shared with the dashboard). */
export { ALLOWED_TYPES, type AllowedType };

export const MAX_UPLOAD_BYTES = Math.max(...ALLOWED_TYPES.map((t) => t.maxBytes));

/** Room for the multipart boundaries and part headers around the file. */
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

export function allowedType(mime: string | undefined): AllowedType | undefined {
  return ALLOWED_TYPES.find((t) => (t.sniffedAs ?? t.mime) === mime);
}
