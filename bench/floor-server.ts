/**
 * The floor of `npm run bench`: the history page served by a bare `node:http` server with
 * postgres.js, no framework. It sends the app's own statements, built by the app's query builders
 * (token by hash, lib/auth/repo.ts; the number and the contact by customer_source in one; the page
 * with its count in one, lib/messages/history-repo.ts) and writes the same JSON,
 * so app ÷ floor is the price of Next.js plus our layers. Only the paginated form is served.
 *
 * And a conversation's first page (`GET /conversations/{id}/messages`): the token, then the
 * inbox thread's own statement (lib/conversations/thread-repo.ts), the same JSON; the floor of
 * "conversation opened", so its p99 at 16 connections says what a bare server reaches on this
 * machine with the same statement.
 *
 * And the template send (`POST /send`): the token by hash as above, the request's zod schema, then
 * the app's own send service (lib/messages/send-service.ts), which sends the very statements the
 * app's route does, in the same order. What the floor leaves out is the route's frame: Next.js,
 * withAuth (permissions, the rate limit, the client address) and the error mapper. So
 * `template send` ÷ floor is the price of that frame, and the floor's own CPU per send is what the
 * send's statements and their drizzle queries cost on a bare server.
 *
 *   DATABASE_URL=… PORT=4000 node --conditions=react-server --import tsx bench/floor-server.ts
 */
import http from "node:http";
import { createHash } from "node:crypto";
import postgres from "postgres";
import { Placeholder } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Db } from "@/db/client";
import { tokenStatement } from "@/lib/auth/repo";
import { HistoryIdRanges, STALE_RANGE, type PartitionBounds } from "@/lib/messages/history-bounds";
import { boundsStatement, conversationStatement, countStatement, pageStatement } from "@/lib/messages/history-repo";
import { resolveWindow } from "@/lib/messages/history-range";
import { parseLocalDate } from "@/lib/messages/history-schemas";
import { sendTemplateInput } from "@/lib/messages/send-schemas";
import { sendTemplate } from "@/lib/messages/send-service";
import { threadPageQuery } from "@/lib/conversations/thread-repo";
import { THREAD_OK } from "@/lib/conversations/thread-schemas";
import { placeholder } from "@/db/prepared";
import { ApiError } from "@/lib/http/errors";

const poolSize = Number(process.env.DATABASE_POOL_SIZE || 10);
const sql = postgres(process.env.DATABASE_URL!, { max: poolSize, onnotice: () => {} });
// The page and the count run, as the app's (db/client.ts genericPlansOf), on sessions that keep
// their generic plans: under plan_cache_mode auto, PostgreSQL re-plans them on every execution
// once the table has some fifty partitions (the 50 M set), and the floor would measure planning.
const generic = postgres(process.env.DATABASE_URL!, {
  max: Math.max(1, Math.ceil(poolSize / 2)),
  onnotice: () => {},
  connection: { plan_cache_mode: "force_generic_plan" },
});
const timeZone = process.env.APP_TIMEZONE || "UTC";

/**
 * The app's own statements, rendered to SQL text once at start-up from its query builders and
 * sent as named prepared statements by postgres.js alone: the same SQL the app sends, with none
 * of drizzle's per-request work (results are read by position, as drizzle itself reads them).
 */
type Built = { toSQL(): { sql: string; params: unknown[] } };
function statement(query: Built, client = sql) {
  const { sql: text, params } = query.toSQL();
  return (values: Record<string, unknown>) =>
    client.unsafe(text, params.map((p) => (p instanceof Placeholder ? values[p.name] : p)) as never[], { prepare: true }).values();
}
// The builder gets a client of its own that never connects: drizzle's postgres-js driver replaces
// its client's type parsers (timestamps come back as text for drizzle to map), and this server
// reads raw rows, whose created_at must stay a Date.
const builder = drizzle(postgres(process.env.DATABASE_URL!, { max: 1 })) as unknown as Db;
const tokenByHash = statement(tokenStatement(builder));
const conversation = statement(conversationStatement(builder));
// Named statements, as the app's on a direct connection: id bounds that prune when the plan starts.
const pages = {
  "DESC:true": statement(pageStatement(builder, { order: "DESC", bounded: true, pruneAt: "start" }), generic),
  "ASC:true": statement(pageStatement(builder, { order: "ASC", bounded: true, pruneAt: "start" }), generic),
  "DESC:false": statement(pageStatement(builder, { order: "DESC", bounded: false, pruneAt: "start" }), generic),
  "ASC:false": statement(pageStatement(builder, { order: "ASC", bounded: false, pruneAt: "start" }), generic),
};
const counts = {
  true: statement(countStatement(builder, { bounded: true, pruneAt: "start" }), generic),
  false: statement(countStatement(builder, { bounded: false, pruneAt: "start" }), generic),
};
const threadNewest = statement(
  threadPageQuery(builder, {
    teamId: placeholder<number>("teamId"),
    conversationId: placeholder<number>("conversationId"),
    beforeId: null,
    limit: placeholder<number>("limit"),
  }),
);
// The window's id range, as the app turns it (lib/messages/history-bounds.ts): cached bounds, checked by the page.
const bounds = statement(boundsStatement(builder));
const loadBounds = async (): Promise<PartitionBounds[]> =>
  (await bounds({})).map((r) => ({
    lo: Number(r[0]),
    hi: Number(r[1]),
    minCreatedAt: r[2] === null ? null : new Date(r[2] as string),
    maxCreatedAt: r[3] === null ? null : new Date(r[3] as string),
  }));
const idRanges = new HistoryIdRanges((err) => (err as { code?: string }).code === STALE_RANGE);

const send = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
};

const pad = (n: number) => String(n).padStart(2, "0");
const formatUtc = (d: Date) =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** A history record from a row read by position (lib/messages/history-repo.ts, recordColumns). */
const recordOf = (r: readonly unknown[]) => ({
  id: r[0],
  customer_number: r[1],
  customer_id: r[2],
  sender: r[3],
  direction: r[4],
  type: r[5],
  status: r[6],
  created_at: formatUtc(r[7] as Date),
  timestamp: Math.floor((r[7] as Date).getTime() / 1000),
  payload: r[8],
  agent_id: r[9],
  agent_name: r[10],
});

/** The bearer token's row (id, team, scopes…), or undefined: the caller answers 401. */
async function bearer(req: http.IncomingMessage) {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
  if (!m) return undefined;
  const [token] = await tokenByHash({ tokenHash: createHash("sha256").update(m[1]).digest("hex") });
  return token;
}

async function history(req: http.IncomingMessage, res: http.ServerResponse) {
  const token = await bearer(req);
  if (!token) return send(res, 401, { message: "Unauthenticated." });
  const teamId = token[1] as number;

  const q = new URL(req.url!, "http://floor").searchParams;
  const source = q.get("customer_source") ?? "";
  const perPage = Number(q.get("per_page") ?? 50);
  const page = Number(q.get("page") ?? 1);
  const order = (q.get("order") ?? "DESC").toUpperCase() === "ASC" ? "ASC" : "DESC";
  const digits = source.replace(/\D/g, "");
  const [found] = await conversation({ teamId, number: q.get("wa_number") ?? "", digits: digits || null, customerId: source });
  if (!found) return send(res, 422, { message: "El número de WhatsApp no está registrado." });
  if (found[1] === null) return send(res, 200, { message: "Historial de mensajes obtenido correctamente.", data: [], pagination: null });

  const to = q.get("to_date");
  const window = resolveWindow(parseLocalDate(q.get("from_date") ?? "")!, to ? parseLocalDate(to)! : undefined);
  const values = {
    teamId,
    waNumberId: found[0],
    contactId: Number(found[1]),
    from: window.from,
    to: window.toExclusive,
    tz: timeZone,
    limit: perPage,
    offset: (page - 1) * perPage,
  };
  const bounded = window.toExclusive !== null;
  const { rows, counted } = await idRanges.run(loadBounds, window, async (ids) => {
    const all = { ...values, lo: ids.lo, hi: ids.hi };
    const rows = await pages[`${order}:${bounded}`](all);
    // Columns by position: the record's (lib/messages/history-repo.ts, recordColumns), the total last.
    return { rows, counted: Number(rows.length ? rows[0][rows[0].length - 1] : (await counts[`${bounded}`](all))[0][0]) };
  });
  send(res, 200, {
    message: "Historial de mensajes obtenido correctamente.",
    data: rows.map(recordOf),
    pagination: { total_items: counted, items_per_page: perPage, current_page: page, total_pages: Math.ceil(counted / perPage) },
  });
}

/** A conversation's newest page, as GET /api/v1/conversations/{id}/messages answers it (no cursor). */
async function thread(req: http.IncomingMessage, res: http.ServerResponse, conversationId: number) {
  const token = await bearer(req);
  if (!token) return send(res, 401, { message: "Unauthenticated." });
  const perPage = Number(new URL(req.url!, "http://floor").searchParams.get("per_page") ?? 50);
  const rows = await threadNewest({ teamId: token[1] as number, conversationId, limit: perPage + 1 });
  const page = rows.slice(0, perPage);
  send(res, 200, {
    message: THREAD_OK,
    // Columns by position: the record's (lib/messages/history-repo.ts, recordColumns).
    data: page.map((r) => ({
      ...recordOf(r),
      update_id: r[11] ?? undefined,
      error: r[12] ?? null,
      routed_to: r[13] ?? null,
      provider_message_id: r[14] ?? null,
    })),
    next_cursor: rows.length > perPage ? `m${Number(page[page.length - 1][0]).toString(36)}` : null,
  });
}

async function readBody(req: http.IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

async function sendOne(req: http.IncomingMessage, res: http.ServerResponse) {
  const token = await bearer(req);
  if (!token) return send(res, 401, { message: "Unauthenticated." });
  const parsed = sendTemplateInput.safeParse(await readBody(req));
  if (!parsed.success) return send(res, 422, { message: parsed.error.issues[0]?.message ?? "invalid" });
  try {
    const ctx = { teamId: token[1] as number, actor: { kind: "token" as const, tokenId: token[0] as number } };
    const result = await sendTemplate({ ctx, input: parsed.data, idempotency: null });
    send(res, result.status, result.body);
  } catch (err) {
    // The contract's 422s (an unknown number or template…) as the app answers them; anything else is a 500 below.
    if (err instanceof ApiError) return send(res, err.status, { message: err.message, ...(err.errors ? { errors: err.errors } : {}) });
    throw err;
  }
}

const server = http.createServer((req, res) => {
  const path = (req.url ?? "").split("?")[0];
  const threadOf = /^\/conversations\/(\d+)\/messages$/.exec(path);
  const handle = threadOf
    ? () => thread(req, res, Number(threadOf[1]))
    : path === "/health"
      ? async () => send(res, 200, { ok: true })
      : path.endsWith("/history")
        ? () => history(req, res)
        : path === "/send" && req.method === "POST"
          ? () => sendOne(req, res)
          : null;
  if (!handle) return send(res, 404, { message: "Not found" });
  handle().catch((err) => {
    console.error(err);
    send(res, 500, { message: "Error interno del servidor." });
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT || 4000), "127.0.0.1");
process.on("SIGTERM", () =>
  server.close(() => Promise.all([sql.end({ timeout: 2 }), generic.end({ timeout: 2 })]).then(() => process.exit(0))),
);
