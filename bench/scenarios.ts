import type { RawRequest } from "autocannon";
import type { BenchData } from "./dataset";
import { load, type Measure } from "./load";
import type { Proc } from "./processes";

export type Query = (text: string) => Promise<Record<string, unknown>[]>;

export type ScenarioCtx = {
  data: BenchData;
  app: Proc;
  floor?: Proc;
  duration: number;
  /** `--repeat=N` (bench/repeat.ts): how many readings a scenario that judges by the median takes. */
  repeat?: number;
  /** Runner-side SQL on the bench database (absent on PGlite, which the server holds). */
  query?: Query;
  /** The bench database's URL (absent on PGlite), for tools such as pgbench. */
  databaseUrl?: string;
};

const day = (d: Date) => d.toISOString().slice(0, 10);
const pick = <T>(list: T[]) => list[Math.floor(Math.random() * list.length)];
/** `n` distinct items (all of them when the list is shorter), in random order. */
function sample<T>(list: T[], n: number): T[] {
  const copy = [...list];
  for (let i = 0; i < Math.min(n, copy.length); i++) {
    const j = i + Math.floor(Math.random() * (copy.length - i));
    [copy[i], copy[j]] = [copy[j], copy[i]];
  }
  return copy.slice(0, n);
}

/** The history page: 50 records, paginated, the last 30 days. */
export function historyPath(data: BenchData, customer: string): string {
  const now = new Date();
  const from = new Date(now.getTime() - 29 * 86_400_000);
  const q = new URLSearchParams({
    customer_source: customer,
    wa_number: data.numbers[0].number,
    from_date: day(from),
    to_date: day(now),
    with_pagination: "1",
    per_page: "50",
  });
  return `/api/v1/messages/whatsapp/history?${q}`;
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

async function status(url: string, init?: RequestInit): Promise<number> {
  const res = await fetch(url, init);
  await res.arrayBuffer();
  return res.status;
}

/** Scenario 1 (and its floor and cluster twins): the history page of one kind of customer. */
export function historyLoad(ctx: ScenarioCtx, server: Proc, target: Measure["target"], kind: "heavy" | "ordinary", connections: number) {
  const { data } = ctx;
  const headers = auth(data.teamA.token);
  const path = historyPath(data, data.heavy.customerNumber);
  return load({
    scenario: `history ${kind}`,
    target,
    url: server.url,
    connections,
    duration: ctx.duration,
    serverPid: server.child.pid!,
    headers,
    requests: [
      {
        method: "GET",
        path,
        setupRequest: (req: RawRequest) => (kind === "heavy" ? req : { ...req, path: historyPath(data, pick(data.ordinary)) }),
      },
    ],
    probe: () => status(server.url + path, { headers }),
  });
}

export function emptyLoad(ctx: ScenarioCtx, server: Proc, connections: number, target: Measure["target"] = "empty") {
  return load({
    scenario: "empty route",
    target,
    url: server.url + "/api/bench/empty",
    connections,
    duration: ctx.duration,
    serverPid: server.child.pid!,
    probe: () => status(server.url + "/api/bench/empty"),
  });
}

/** Authentication's price: the empty route behind `withAuth`, with team A's token (app/api/bench/auth). */
export function authLoad(ctx: ScenarioCtx, server: Proc, connections: number) {
  const headers = auth(ctx.data.teamA.token);
  return load({
    scenario: "empty authenticated route",
    target: "empty",
    url: server.url + "/api/bench/auth",
    connections,
    duration: ctx.duration,
    serverPid: server.child.pid!,
    headers,
    probe: () => status(server.url + "/api/bench/auth", { headers }),
  });
}

/** The limiter's price: the empty route plus one `checkRateLimit` on one hot key. */
export function rateLimitLoad(ctx: ScenarioCtx, connections: number) {
  return load({
    scenario: "empty route + rate-limit check",
    target: "rate-limit",
    url: ctx.app.url + "/api/bench/rate-limit",
    connections,
    duration: ctx.duration,
    serverPid: ctx.app.child.pid!,
    probe: () => status(ctx.app.url + "/api/bench/rate-limit"),
  });
}

export function sendBody(data: BenchData, destination: string, numberIndex = 0) {
  return JSON.stringify({
    wa_number: data.numbers[numberIndex].number,
    destination,
    template_name: data.templateName,
    header_param: { key: "1", value: "María" },
    body_params: [
      { key: "1", value: `A-${Math.floor(Math.random() * 1e6)}` },
      { key: "2", value: "lunes" },
    ],
    sent_group: "bench",
  });
}

/**
 * Scenario 3: template sends accepted (200, durably QUEUED) per second, by the app or by the floor
 * (bench/floor-server.ts `POST /send`: the same service, on bare node:http).
 */
export async function sendLoad(
  ctx: ScenarioCtx,
  connections: number,
  server: Proc = ctx.app,
  target: Measure["target"] = "app",
): Promise<Measure> {
  const { data } = ctx;
  const headers = { ...auth(data.teamA.token), "content-type": "application/json" };
  const path = target === "floor" ? "/send" : "/api/v1/message_templates/send";
  const url = server.url + path;
  const before = await queuedCount(ctx);
  const m = await load({
    scenario: "template send",
    target,
    url: server.url,
    connections,
    duration: ctx.duration,
    serverPid: server.child.pid!,
    unit: "sends/s",
    headers,
    requests: [
      {
        method: "POST",
        path,
        setupRequest: (req: RawRequest) => ({ ...req, body: sendBody(data, pick(data.ordinary)) }),
      },
    ],
    probe: () => status(url, { method: "POST", headers, body: sendBody(data, pick(data.ordinary)) }),
  });
  return withQueuedCheck(ctx, m, before);
}

/**
 * Scenario 3b: the bulk endpoint, when it exists: 1,000 recipients of one template per request,
 * each with its own parameters. Its throughput is counted in accepted messages per second.
 */
export async function bulkSendLoad(ctx: ScenarioCtx, connections: number, path: string, perRequest: number): Promise<Measure> {
  const { data } = ctx;
  const headers = { ...auth(data.teamA.token), "content-type": "application/json" };
  const body = () =>
    JSON.stringify({
      wa_number: data.numbers[0].number,
      template_name: data.templateName,
      sent_group: "bench-bulk",
      recipients: sample(data.ordinary, perRequest).map((destination) => ({
        destination,
        header_param: { key: "1", value: "María" },
        body_params: [
          { key: "1", value: `A-${Math.floor(Math.random() * 1e6)}` },
          { key: "2", value: "lunes" },
        ],
      })),
    });
  const before = await queuedCount(ctx);
  // Throughput counts the messages each answer says it accepted, not requests × batch size.
  let accepted = 0;
  const m = await load({
    onMeasureStart: () => {
      accepted = 0;
    },
    scenario: `bulk send (${perRequest}/request)`,
    target: "app",
    url: ctx.app.url,
    connections,
    serverPid: ctx.app.child.pid!,
    unit: "msgs/s",
    perRequest,
    // One request carries 1,000 sends, so fewer connections and a longer run and timeout than
    // the single sends: enough answers to count even on a loaded machine.
    duration: Math.max(ctx.duration, 10),
    timeout: 60,
    warmupSeconds: 1,
    headers,
    requests: [
      {
        method: "POST",
        path,
        setupRequest: (req: RawRequest) => ({ ...req, body: body() }),
        onResponse: (code: number, text: string) => {
          if (code !== 200) return;
          try {
            accepted += Number(JSON.parse(text).data?.accepted ?? 0);
          } catch {}
        },
      },
    ],
    probe: () => status(ctx.app.url + path, { method: "POST", headers, body: body() }),
  });
  const counted = m.available && m.durationSeconds ? { ...m, throughput: Math.round(accepted / m.durationSeconds) } : m;
  return withQueuedCheck(ctx, counted, before);
}

async function queuedCount(ctx: ScenarioCtx): Promise<number | null> {
  if (!ctx.query) return null;
  const [row] = await ctx.query(`select count(*)::int as n from messages where team_id = ${ctx.data.teamA.id} and status = 'QUEUED'`);
  return Number(row.n);
}

/** Every accepted send must be a durable QUEUED row: the count grows by at least the 2xx answers. */
async function withQueuedCheck(ctx: ScenarioCtx, m: Measure, before: number | null): Promise<Measure> {
  const after = await queuedCount(ctx);
  if (!m.available || before === null || after === null) return m;
  return { ...m, note: `${(after - before).toLocaleString("en")} new QUEUED rows (warm-up included)` };
}

/**
 * Scenario 5: label add then remove on the same contact, 64 connections over 1,000 contacts.
 * Each round trip borrows a contact no other connection holds, so the two calls never race
 * another connection's; it is returned after the remove.
 */
export function labelLoad(ctx: ScenarioCtx, connections: number, target: "app" | "cluster" = "app") {
  const { data } = ctx;
  const free = [...data.labelContacts];
  const headers = { ...auth(data.teamA.token), "content-type": "application/json" };
  const labelBody = (label: number) => JSON.stringify({ label_ids: [label] });
  return load({
    scenario: "label add+remove",
    target,
    url: ctx.app.url,
    connections,
    duration: ctx.duration,
    serverPid: ctx.app.child.pid!,
    unit: "round trips/s",
    perRequest: 0.5,
    headers,
    requests: [
      {
        method: "POST",
        setupRequest: (req: RawRequest, c: Record<string, any>) => {
          c.contact = free.shift();
          c.label = pick(data.labelIds);
          return { ...req, path: `/api/v1/contacts/${c.contact}/labels`, body: labelBody(c.label) };
        },
      },
      {
        method: "PUT",
        setupRequest: (req: RawRequest, c: Record<string, any>) => ({
          ...req,
          path: `/api/v1/contacts/${c.contact}/labels`,
          body: labelBody(c.label),
        }),
        onResponse: (_status: number, _body: string, c: Record<string, any>) => {
          if (c.contact !== undefined) free.push(c.contact);
        },
      },
    ],
    probe: async () => {
      const contact = data.labelContacts[0];
      const s = await status(`${ctx.app.url}/api/v1/contacts/${contact}/labels`, {
        method: "POST",
        headers,
        body: labelBody(data.labelIds[0]),
      });
      if (s === 200)
        await status(`${ctx.app.url}/api/v1/contacts/${contact}/labels`, { method: "PUT", headers, body: labelBody(data.labelIds[0]) });
      return s;
    },
  });
}
