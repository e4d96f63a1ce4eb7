import { boundedJsonText } from "./json-limits";

// eslint-disable-next-line no-control-regex
const NUL = /\u0000/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * Text Postgres can store: text and jsonb cannot hold U+0000 (removed), and jsonb refuses an
 * unpaired UTF-16 surrogate (replaced by U+FFFD, as a UTF-8 decoder would).
 */
export function storableText(s: string): string {
  return s.replace(NUL, "").replace(LONE_SURROGATE, "\uFFFD");
}

/** A JSON value with every string and key made storable (a new value; the input is left as is). */
export function storableJson(value: unknown): unknown {
  if (typeof value === "string") return storableText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[storableText(k)] = storableJson(v);
    return out;
  }
  return value;
}

/**
 * A JSON value as text for a dead letter: NUL and lone surrogates written as \u escapes, and at
 * most MAX_KEPT_DEPTH levels and MAX_KEPT_CHARS characters of it (an item set aside for its depth
 * or size is kept as far as it can be, never the cause of a stack overflow).
 */
export function rawJsonText(value: unknown): string {
  try {
    return boundedJsonText(value);
  } catch {
    return "(not serializable)";
  }
}
