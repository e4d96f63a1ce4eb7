import "./zod-es";
import type { z } from "zod";
import { ApiError } from "./errors";
import { BODY_TOO_DEEP, MAX_BODY_DEPTH } from "./json-limits";

export const DEFAULT_MAX_JSON_BYTES = 256 * 1024;

export const UNSTORABLE_TEXT = "La solicitud contiene caracteres no válidos (el carácter NUL o sustitutos UTF-16 sueltos).";
// Postgres text and jsonb cannot hold NUL, and jsonb refuses an unpaired surrogate escape: such a
// string would fail in the database (500), so it is refused at the door.
// eslint-disable-next-line no-control-regex
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function refuseUnstorable(key: string, value: unknown): unknown {
  if ((typeof value === "string" && UNSTORABLE.test(value)) || UNSTORABLE.test(key)) {
    throw ApiError.badRequest(UNSTORABLE_TEXT);
  }
  return value;
}

/**
 * Refuses (400) a parsed body nesting deeper than MAX_BODY_DEPTH, or holding an unstorable string
 * or key, in one iterative walk. JSON.parse reads any depth, but a reviver recurses (its stack
 * ran out near 5,000 levels) and so do the walks after it (idempotency's canonical JSON near
 * 2,000: a 500), so the depth is checked here, the one door of every JSON body, and a body gets
 * the same answer with or without an Idempotency-Key.
 */
function refuseHostileJson(body: unknown): void {
  const stack: [unknown, number][] = [[body, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (depth > MAX_BODY_DEPTH) throw ApiError.badRequest(BODY_TOO_DEEP);
    if (Array.isArray(v)) {
      for (const x of v) {
        if (typeof x === "string") refuseUnstorable("", x);
        else if (x && typeof x === "object") stack.push([x, depth + 1]);
      }
    } else {
      for (const [k, x] of Object.entries(v as Record<string, unknown>)) {
        refuseUnstorable(k, x);
        if (x && typeof x === "object") stack.push([x, depth + 1]);
      }
    }
  }
}

/** Reads a body stream, refusing (413) as soon as it passes `maxBytes`, whatever Content-Length says. */
export async function readBodyLimited(req: Request, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(req.headers.get("content-length") ?? "0");
  if (declared > maxBytes) throw ApiError.tooLarge();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw ApiError.tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/**
 * Parses a JSON body against one zod schema: 415 without `Content-Type: application/json`,
 * 413 past the size limit, 400 for malformed JSON, 422 (ZodError) for invalid fields.
 */
export async function parseJsonBody<S extends z.ZodType>(req: Request, schema: S, opts: { maxBytes?: number } = {}): Promise<z.output<S>> {
  const value = await readJson(req, opts.maxBytes ?? DEFAULT_MAX_JSON_BYTES);
  return schema.parse(value);
}

/** The raw JSON value of a body (for handlers that must hash the request, e.g. idempotency). */
export async function readJson(req: Request, maxBytes = DEFAULT_MAX_JSON_BYTES): Promise<unknown> {
  const type = (req.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/json") {
    throw new ApiError(415, "El encabezado Content-Type debe ser application/json.");
  }
  const bytes = await readBodyLimited(req, maxBytes);
  let value: unknown;
  try {
    value = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(bytes));
  } catch {
    throw ApiError.badRequest("El cuerpo de la solicitud no es un JSON válido.");
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw ApiError.badRequest("El cuerpo de la solicitud debe ser un objeto JSON.");
  }
  refuseHostileJson(value);
  return value;
}

/**
 * Parses the query string against one zod schema (values arrive as strings; the schema coerces).
 * A key repeats only where it is named in `arrays` (`?label_id=1&label_id=2`); elsewhere the first wins.
 */
export function parseQuery<S extends z.ZodType>(req: Request, schema: S, { arrays = [] }: { arrays?: string[] } = {}): z.output<S> {
  const params = new URL(req.url).searchParams;
  const raw: Record<string, string | string[]> = {};
  for (const [k, v] of params) {
    const value = refuseUnstorable(k, v) as string;
    if (arrays.includes(k)) ((raw[k] ??= []) as string[]).push(value);
    else if (!(k in raw)) raw[k] = value;
  }
  return schema.parse(raw);
}

/** Parses a positive integer path id; anything else answers like a missing row (404). */
export function parseId(value: string | undefined, notFoundMessage?: string): number {
  if (!value || !/^[1-9][0-9]{0,9}$/.test(value) || Number(value) > 2147483647) {
    throw ApiError.notFound(notFoundMessage);
  }
  return Number(value);
}
