/**
 * The floor of `npm run bench`: the history page served by a bare `node:http` server with
 * postgres.js, no framework. It sends the same statements as the app (token by hash; the number and
 * the contact by customer_source in one; the page with its count in one, lib/messages/history-repo.ts)
 * and writes the same JSON,
 * so app ÷ floor is the price of Next.js plus our layers. Only the paginated form is served.
 *
 *   DATABASE_URL=… PORT=4000 node --conditions=react-server --import tsx bench/floor-server.ts
 */
import http from "node:http";
import { createHash } from "node:crypto";
import postgres from "postgres";

const sql = postgres(process.env.DATABASE_URL!, { max: Number(process.env.DATABASE_POOL_SIZE || 10), onnotice: () => {} });
const timeZone = process.env.APP_TIMEZONE || "UTC";

const send = (res: http.ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
};

const pad = (n: number) => String(n).padStart(2, "0");
const formatUtc = (d: Date) =>
  `${d.getUTCFullYear()}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`;

/** `YYYY-MM-DD` → that day's first second, and for the upper bound the next day's. */
const dayStart = (s: string) => (s.length === 10 ? `${s} 00:00:00` : s);
const dayEndExclusive = (s: string) => {
  if (s.length !== 10) return new Date(Date.parse(`${s.replace(" ", "T")}Z`) + 1000).toISOString().slice(0, 19).replace("T", " ");
  return new Date(Date.parse(`${s}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10) + " 00:00:00";
};

async function history(req: http.IncomingMessage, res: http.ServerResponse) {
  const m = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? "");
  if (!m) return send(res, 401, { message: "Unauthenticated." });
  const hash = createHash("sha256").update(m[1]).digest("hex");
  const [token] = await sql`select id, team_id from api_tokens where token_hash = ${hash} and revoked_at is null limit 1`;
  if (!token) return send(res, 401, { message: "Unauthenticated." });

  const q = new URL(req.url!, "http://floor").searchParams;
  const source = q.get("customer_source") ?? "";
  const perPage = Number(q.get("per_page") ?? 50);
  const page = Number(q.get("page") ?? 1);
  const desc = (q.get("order") ?? "DESC").toUpperCase() !== "ASC";
  const digits = source.replace(/\D/g, "");
  const [number] = await sql`select id, (select id from contacts
      where team_id = ${token.team_id} and (customer_number = ${digits} or customer_id = ${source})
      order by (customer_number = ${digits}) is true desc limit 1) as contact_id
    from wa_numbers where team_id = ${token.team_id} and number = ${q.get("wa_number") ?? ""} limit 1`;
  if (!number) return send(res, 422, { message: "El número de WhatsApp no está registrado." });
  if (number.contact_id === null) return send(res, 200, { message: "Historial de mensajes obtenido correctamente.", data: [], pagination: null });

  const from = dayStart(q.get("from_date") ?? "");
  const to = dayEndExclusive(q.get("to_date") ?? "");
  const conv = sql`team_id = ${token.team_id} and wa_number_id = ${number.id} and contact_id = ${number.contact_id}`;
  const f = sql`(${from}::timestamp at time zone ${timeZone})`;
  const t = sql`(${to}::timestamp at time zone ${timeZone})`;
  const where = sql`${conv} and created_at >= ${f} and created_at < ${t}`;
  const order = desc ? sql`desc` : sql`asc`;
  // total_items as the app counts it: whole UTC days from the conversation_days rollup, the two
  // partial edge days in messages (lib/messages/history-repo.ts, conversationCount).
  const firstDay = sql`((${f} at time zone 'UTC') + interval '1 day' - interval '1 microsecond')::date`;
  const endDay = sql`(${t} at time zone 'UTC')::date`;
  const total = sql`(case when ${firstDay} < ${endDay}
      then (select coalesce(sum(messages), 0) from conversation_days where ${conv} and day >= ${firstDay} and day < ${endDay})
        + (select count(*) from messages where ${conv} and created_at >= ${f} and created_at < (${firstDay}::timestamp at time zone 'UTC'))
        + (select count(*) from messages where ${conv} and created_at >= (${endDay}::timestamp at time zone 'UTC') and created_at < ${t})
      else (select count(*) from messages where ${where}) end)::int`;
  const rows = await sql`select id, customer_number, customer_id, sender, direction, type, status, created_at, payload, agent_id, agent_name,
      ${total} as total
    from messages where id = any(array(select id from messages where ${where} order by id ${order} limit ${perPage} offset ${(page - 1) * perPage}))
    order by id ${order}`;
  const counted = rows.length ? rows[0].total : (await sql`select ${total} as total`)[0].total;
  send(res, 200, {
    message: "Historial de mensajes obtenido correctamente.",
    data: rows.map((r) => ({
      id: r.id,
      customer_number: r.customer_number,
      customer_id: r.customer_id,
      sender: r.sender,
      direction: r.direction,
      type: r.type,
      status: r.status,
      created_at: formatUtc(r.created_at),
      timestamp: Math.floor(r.created_at.getTime() / 1000),
      payload: r.payload,
      agent_id: r.agent_id,
      agent_name: r.agent_name,
    })),
    pagination: { total_items: counted, items_per_page: perPage, current_page: page, total_pages: Math.ceil(counted / perPage) },
  });
}

const server = http.createServer((req, res) => {
  const path = (req.url ?? "").split("?")[0];
  const handle = path === "/health" ? async () => send(res, 200, { ok: true }) : path.endsWith("/history") ? () => history(req, res) : null;
  if (!handle) return send(res, 404, { message: "Not found" });
  handle().catch((err) => {
    console.error(err);
    send(res, 500, { message: "Error interno del servidor." });
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT || 4000), "127.0.0.1");
process.on("SIGTERM", () => server.close(() => sql.end({ timeout: 2 }).then(() => process.exit(0))));
