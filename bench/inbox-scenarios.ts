import http from "node:http";
import type { RawRequest } from "autocannon";
import { load, mb, unavailable, type Measure } from "./load";
import { cpuMs, memorySampler } from "./processes";
import type { ScenarioCtx } from "./scenarios";
import { databaseMeter } from "./status-scenarios";

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

/** The inbox's conversation list variants (20 a page), as the list's tabs and orders ask for them. */
const LIST_VARIANTS = {
  all: "",
  needs_reply: "&needs_reply=1",
  // The customer waiting longest first, and the conversations a broadcast opened.
  waiting: "&needs_reply=1&order=waiting",
  outbound_only: "&outbound_only=1",
} as const;
export type ListVariant = keyof typeof LIST_VARIANTS;
export const LIST_VARIANT_NAMES = Object.keys(LIST_VARIANTS) as ListVariant[];

export function conversationsLoad(ctx: ScenarioCtx, connections: number, variant: ListVariant): Promise<Measure> {
  const path = `/api/v1/conversations?per_page=20${LIST_VARIANTS[variant]}`;
  return getLoad(ctx, connections, `conversations ${variant === "all" ? "list" : variant}`, path);
}

/**
 * Opening a conversation in the inbox: its thread's first page (the newest 50 messages, one
 * request: GET /api/v1/conversations/{id}/messages), for the heavy customer (≈200,000 messages in
 * the 5 M set) or a random ordinary one of team A on numbers[0]; by the app, or by its floor
 * (bench/floor-server.ts: the same statement on bare node:http). Needs Postgres (the ids are read
 * beside the server).
 */
export async function threadLoad(
  ctx: ScenarioCtx,
  connections: number,
  kind: "heavy" | "ordinary",
  target: "app" | "floor" = "app",
): Promise<Measure> {
  const scenario = `conversation opened (${kind})`;
  const server = target === "floor" ? ctx.floor : ctx.app;
  if (!ctx.query) return unavailable(scenario, target, connections, "needs Postgres (the bench reads the conversations' ids)");
  if (!server) return unavailable(scenario, target, connections, "no floor server in this run");
  const { data } = ctx;
  const numberId = data.numbers[0].id;
  const rows = await ctx.query(
    kind === "heavy"
      ? `select id from conversations where team_id = ${data.teamA.id} and wa_number_id = ${numberId} and contact_id = ${data.heavy.contactId}`
      : `select c.id from conversations c join contacts k on k.team_id = c.team_id and k.id = c.contact_id
         where c.team_id = ${data.teamA.id} and c.wa_number_id = ${numberId} and c.contact_id <> ${data.heavy.contactId}
         order by c.id limit 2000`,
  );
  const ids = rows.map((r) => Number(r.id));
  if (!ids.length) return unavailable(scenario, target, connections, "no conversation of that kind in the data set");
  // The floor serves the same page without the /api/v1 prefix (bench/floor-server.ts).
  const prefix = target === "floor" ? "" : "/api/v1";
  const pathOf = () => `${prefix}/conversations/${ids[Math.floor(Math.random() * ids.length)]}/messages?per_page=50`;
  const headers = auth(data.teamA.token);
  return load({
    scenario,
    target,
    url: server.url,
    connections,
    duration: ctx.duration,
    serverPid: server.child.pid!,
    headers,
    requests: [{ method: "GET", path: pathOf(), setupRequest: (req: RawRequest) => ({ ...req, path: pathOf() }) }],
    probe: async () => {
      const res = await fetch(server.url + pathOf(), { headers });
      await res.arrayBuffer();
      return res.status;
    },
  });
}

/**
 * The reports: team A's last 30 days per day, and per agent, read from their rollups.
 */
export function reportsLoad(ctx: ScenarioCtx, connections: number, which: "summary" | "agents"): Promise<Measure> {
  return getLoad(ctx, connections, `reports ${which}`, `/api/v1/reports/${which}`);
}

/**
 * A GET load of team A. On Postgres the note adds the database's side: its client backends' CPU per
 * answer (bench/status-scenarios.ts databaseMeter), so that a request's whole price, web process
 * plus Postgres, is on the row (the two share the machine's cores).
 */
async function getLoad(ctx: ScenarioCtx, connections: number, scenario: string, path: string): Promise<Measure> {
  const headers = auth(ctx.data.teamA.token);
  const meter = ctx.query ? databaseMeter(ctx.query) : undefined;
  const m = await load({
    scenario,
    target: "app",
    url: ctx.app.url,
    connections,
    duration: ctx.duration,
    serverPid: ctx.app.child.pid!,
    headers,
    requests: [{ method: "GET", path }],
    probe: async () => {
      const res = await fetch(ctx.app.url + path, { headers });
      await res.arrayBuffer();
      return res.status;
    },
    onMeasureStart: () => meter?.start(),
  });
  const answers = m.reqPerSec * m.durationSeconds;
  if (!meter || !m.available || !answers) return m;
  const db = await meter.stop();
  if (db.cpuMs === null) return m;
  const pg = db.cpuMs / answers;
  const total = m.cpuMsPerReq === null ? "" : `, web + Postgres ${(m.cpuMsPerReq + pg).toFixed(2)}`;
  return { ...m, note: [m.note, `Postgres CPU ${pg.toFixed(2)} ms/req${total}`].filter(Boolean).join("; ") };
}

const percentile = (sorted: number[], p: number) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] : null;

/**
 * Event fan-out: `streams` SSE clients of team A held open on one server while messages are
 * inserted at `perSecond` (as a webhook or the worker would, straight into Postgres). Latency is
 * from the message's insert (its created_at, taken inside the writing transaction) to its
 * `message.created` frame on a probe stream; the other streams only drain. Memory is the
 * server's peak RSS with every stream open.
 */
export async function eventsScenario(ctx: ScenarioCtx, streams = 1000, perSecond = 50): Promise<Measure> {
  const scenario = `events: ${streams} streams, ${perSecond} msgs/s`;
  if (!ctx.query) return unavailable(scenario, "app", streams, "needs Postgres (the bench writes messages beside the server)");
  const { data, app } = ctx;
  const probes = 20;
  const latencies: number[] = [];
  const closers: (() => void)[] = [];
  let stopping = false;
  let opened = 0;
  let failed = 0;
  const mem = memorySampler(app.child.pid!);
  // A credential holds at most MAX_STREAMS_PER_CREDENTIAL streams: the streams are
  // spread over as many of team A's tokens as that takes, like the dashboards of many agents.
  const { createToken } = await import("@/lib/auth/tokens");
  const { MAX_STREAMS_PER_CREDENTIAL } = await import("@/lib/events/stream-registry");
  const tokens = await Promise.all(
    Array.from({ length: Math.ceil(streams / MAX_STREAMS_PER_CREDENTIAL) }, async () => {
      return (await createToken({ input: { teamId: data.teamA.id, name: "bench events" } })).token;
    }),
  );

  // node:http rather than fetch: a sink stream only drains (res.resume()), and a probe parses
  // raw chunks, so the client's own cost per frame stays far below the server's (fetch's web
  // streams on 1,000 connections took a core of their own on this 2-core machine).
  const open = (probe: boolean, token: string) =>
    new Promise<void>((resolve) => {
      const req = http.get(`${app.url}/api/v1/events`, { headers: auth(token), agent: false }, (res) => {
        if (res.statusCode !== 200) {
          failed++;
          res.resume();
          return resolve();
        }
        opened++;
        res.on("close", resolve);
        res.on("error", () => resolve());
        if (!probe) return void res.resume();
        res.setEncoding("utf8");
        let buffer = "";
        res.on("data", (chunk: string) => {
          const now = Date.now();
          buffer += chunk;
          let end: number;
          while ((end = buffer.indexOf("\n\n")) >= 0) {
            const frame = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            if (!frame.includes("event: message.created")) continue;
            const at = /"created_at":"([^"]+)"/.exec(frame)?.[1];
            if (at) latencies.push(now - Date.parse(at));
          }
        });
      });
      req.on("error", () => {
        if (!stopping) failed++;
        resolve();
      });
      closers.push(() => req.destroy());
    });
  // Open in batches, as clients arriving: 1,000 at once would be a connection storm, not the case.
  const running: Promise<void>[] = [];
  for (let i = 0; i < streams; i++) {
    running.push(open(i < probes, tokens[Math.floor(i / MAX_STREAMS_PER_CREDENTIAL)]));
    if (i % 50 === 49) await new Promise((r) => setTimeout(r, 100));
  }
  for (let i = 0; i < 600 && opened + failed < streams; i++) await new Promise((r) => setTimeout(r, 100));

  const number = data.numbers[0];
  const contact = data.heavy.contactId;
  const cpu0 = cpuMs(app.child.pid!);
  const t0 = Date.now();
  let sent = 0;
  while (Date.now() - t0 < ctx.duration * 1000) {
    const due = Math.floor(((Date.now() - t0) / 1000) * perSecond) - sent;
    for (let i = 0; i < due; i++, sent++) {
      void ctx.query(`insert into messages (team_id, wa_number_id, contact_id, direction, type, status, sender, payload, created_at)
        values (${data.teamA.id}, ${number.id}, ${contact}, 'INBOUND', 'text', 'RECEIVED', 'CUSTOMER', '{"text":"bench"}', clock_timestamp())`);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  await new Promise((r) => setTimeout(r, 1000));
  const serverCpu = (cpuMs(app.child.pid!) - cpu0) / (Date.now() - t0);
  const m = mem.stop();
  stopping = true;
  closers.forEach((close) => close());
  await Promise.allSettled(running);

  const sorted = [...latencies].sort((a, b) => a - b);
  const expected = sent * Math.min(probes, opened);
  return {
    scenario,
    target: "app",
    connections: streams,
    throughput: Math.round(sent / ctx.duration),
    unit: "msgs/s",
    durationSeconds: ctx.duration,
    reqPerSec: 0,
    cpuMsPerReq: null,
    p50: percentile(sorted, 50),
    p99: percentile(sorted, 99),
    requests: latencies.length,
    errors: failed,
    non2xx: 0,
    statusCodes: {},
    peakRssMb: mb(m.peakProcessRss),
    peakTreeRssMb: mb(m.peakTreeRss),
    note: `${opened} streams open; latency commit→receipt on ${Math.min(probes, opened)} probe streams (${latencies.length} of ${expected} frames seen); server CPU ${serverCpu.toFixed(2)} cores`,
    available: true,
  };
}
