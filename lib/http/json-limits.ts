/**
 * Depth and size limits for untrusted JSON that is walked recursively after JSON.parse (V8 parses
 * any depth, but a recursive walk, JSON.stringify or a jsonb insert of 4,000 levels overflows the
 * stack: a RangeError, then a 500). Everything here is iterative or bounded by the depth it checks.
 */

/**
 * Deepest JSON request body accepted (readJson, lib/http/parse.ts), refused with 400 before any
 * schema, hash (idempotency's canonical JSON) or insert walks it. The API's own bodies nest under
 * 10 levels; 64 is what .NET's System.Text.Json allows by default.
 */
export const MAX_BODY_DEPTH = 64;
export const BODY_TOO_DEEP = `El cuerpo de la solicitud no puede tener más de ${MAX_BODY_DEPTH} niveles de anidamiento.`;

/** Deepest item accepted inside a webhook batch (Meta's messages are well under 10 levels). */
export const MAX_ITEM_DEPTH = 32;
/** Largest item accepted inside a webhook batch, as JSON text (a text message is at most 4,096 characters). */
export const MAX_ITEM_BYTES = 64 * 1024;
/** What a dead letter keeps of a value: this many levels, this many characters. */
export const MAX_KEPT_DEPTH = 64;
export const MAX_KEPT_CHARS = 256 * 1024;

/** Whether `value` nests deeper than `limit` levels of arrays/objects (iterative; stops at the first too deep). */
export function deeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (!v || typeof v !== "object") continue;
    if (depth + 1 > limit) return true;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child && typeof child === "object") stack.push([child, depth + 1]);
  }
  return false;
}

/** Why an item of a batch cannot be stored as it is (too deep, too large), or null when it can. */
export function itemLimitProblem(where: string, value: unknown): string | null {
  if (deeperThan(value, MAX_ITEM_DEPTH)) return `${where}: JSON nested deeper than ${MAX_ITEM_DEPTH} levels`;
  const size = (JSON.stringify(value) ?? "").length;
  if (size > MAX_ITEM_BYTES) return `${where}: ${size} characters of JSON, more than ${MAX_ITEM_BYTES}`;
  return null;
}

const CUT = '"…"';

/**
 * `value` as JSON text for a dead letter, whatever its depth: levels past `maxDepth` are written
 * as "…", and the text is cut at `maxChars` (marked by a trailing …). Recursion is bounded by
 * `maxDepth`; NUL and lone surrogates stay \u escapes, as JSON.stringify writes them.
 */
export function boundedJsonText(value: unknown, maxDepth = MAX_KEPT_DEPTH, maxChars = MAX_KEPT_CHARS): string {
  let out = "";
  const write = (v: unknown, depth: number): void => {
    if (out.length > maxChars) return;
    if (v === null || typeof v !== "object") {
      out += JSON.stringify(v) ?? "null";
      return;
    }
    if (depth >= maxDepth) {
      out += CUT;
      return;
    }
    if (Array.isArray(v)) {
      out += "[";
      v.forEach((x, i) => {
        if (i) out += ",";
        write(x, depth + 1);
      });
      out += "]";
      return;
    }
    out += "{";
    Object.entries(v).forEach(([k, x], i) => {
      if (i) out += ",";
      out += `${JSON.stringify(k)}:`;
      write(x, depth + 1);
    });
    out += "}";
  };
  write(value, 0);
  return out.length > maxChars ? `${out.slice(0, maxChars)}…` : out;
}
