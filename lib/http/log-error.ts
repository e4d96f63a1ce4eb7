/**
 * What an unexpected error may put in the log (docs/operations.md, "Security": an error, its route and a request id;
 * never bodies, query values, tokens or file bytes). Errors raised by libraries can embed request
 * data in their message: drizzle's "Failed query: … params: <every bound value>" carries whole
 * uploaded files, Postgres quotes the offending value (`invalid input syntax for type integer:
 * "…"`). So only the error's name, a bounded message with quoted values and bound parameters cut
 * out, its code and the stack frames (never the stack's first line, which repeats the message)
 * are logged, for the error and its causes.
 */
const MAX_MESSAGE = 300;
const MAX_FRAMES = 12;

type Summary = { name: string; message: string; code?: string; query?: string; frames?: string[]; cause?: Summary; errors?: Summary[] };

function cleanMessage(message: string): string {
  let m = message;
  // drizzle: "Failed query: <sql>\nparams: <values>" — keep neither the values nor the message
  // (the SQL itself is logged on its own, from the error's `query`).
  const params = m.indexOf("\nparams:");
  if (params >= 0) m = m.slice(0, params);
  m = m
    .replace(/"[^"]*"/g, '"…"')
    .replace(/'[^']*'/g, "'…'")
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000B-\u001F\uD800-\uDFFF]/g, "?");
  return m.length > MAX_MESSAGE ? `${m.slice(0, MAX_MESSAGE)}…` : m;
}

export function summarizeError(err: unknown, depth = 0): Summary {
  if (!(err instanceof Error)) return { name: typeof err, message: "(not an Error)" };
  const e = err as Error & { code?: unknown; query?: unknown; cause?: unknown; errors?: unknown };
  // drizzle's DrizzleQueryError (its message lists every parameter); drivers' errors also carry
  // `query` and `params`, but their message is Postgres's own.
  const isQueryError = typeof e.query === "string" && /^Failed query/.test(e.message);
  const out: Summary = { name: e.name, message: isQueryError ? "Failed query" : cleanMessage(e.message) };
  if (typeof e.code === "string" || typeof e.code === "number") out.code = String(e.code).slice(0, 40);
  // The SQL of a query error has $n placeholders, never the values.
  if (typeof e.query === "string" && depth === 0) out.query = e.query.slice(0, 500);
  const frames = (e.stack ?? "")
    .split("\n")
    .filter((l) => /^\s+at /.test(l))
    .slice(0, MAX_FRAMES)
    .map((l) => l.trim());
  if (frames.length) out.frames = frames;
  if (depth < 3 && e.cause !== undefined) out.cause = summarizeError(e.cause, depth + 1);
  if (depth < 1 && Array.isArray(e.errors)) out.errors = e.errors.slice(0, 5).map((x) => summarizeError(x, depth + 1));
  return out;
}

/** The route of a request as its pattern (`/api/v1/updates/[updateId]`), never its values or query. */
export function routePattern(req: Request | undefined, params?: Record<string, string | string[]>): string {
  if (!req) return "(unknown)";
  let path: string;
  try {
    path = new URL(req.url).pathname;
  } catch {
    return "(unknown)";
  }
  const segs = path.split("/");
  for (const [key, value] of Object.entries(params ?? {})) {
    if (Array.isArray(value)) {
      // A catch-all is the route's last segment: its values are the path's last segments.
      if (value.length && segs.length > value.length) segs.splice(segs.length - value.length, value.length, `[...${key}]`);
      continue;
    }
    const i = segs.findIndex((s) => s === value || s === encodeURIComponent(value));
    if (i >= 0) segs[i] = `[${key}]`;
  }
  const pattern = segs.join("/");
  // Without params (a failure before they were known) keep only the static-looking prefix.
  return params ? pattern : pattern.split("/").slice(0, 4).join("/");
}

export function logUnexpected(requestId: string, method: string, route: string, err: unknown, status = 500) {
  console.error(`[api] ${status} request_id=${requestId} ${method} ${route}`, JSON.stringify(summarizeError(err)));
}
