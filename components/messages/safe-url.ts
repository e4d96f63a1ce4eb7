import { sameOriginPath } from "@/lib/http/safe-redirect";

/**
 * The one gate for URLs taken from payloads: only http(s) (absolute, or a path that resolves to
 * our own origin) may become a link or a media source. `javascript:`, `data:`, `//host` and
 * `/\host` (which browsers read as another site) and the rest stay text.
 */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const v = value.trim();
  if (!v) return null;
  if (v.startsWith("/")) return sameOriginPath(v);
  try {
    const u = new URL(v);
    return u.protocol === "http:" || u.protocol === "https:" ? u.href : null;
  } catch {
    return null;
  }
}

export function str(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "string"
    ? value
    : typeof value === "number" || typeof value === "boolean"
      ? String(value)
      : JSON.stringify(value);
}

export function obj(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

export function arr(value: unknown): unknown[] {
  return Array.isArray(value) ? value : [];
}
