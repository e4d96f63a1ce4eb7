/**
 * `npm run bench -- --replica`: the pooler and the read replica of docs/deployment.md, measured.
 * Starts its own PostgreSQL 15 primary, a streaming replica of it and PgBouncer
 * in transaction pooling (scripts/pg-cluster.sh, as the scale pass does) in a temporary folder,
 * generates the usual data set on the primary (the replica follows by WAL), and measures the same
 * two loads on three deployments, each served by its own pair of `next start`:
 *
 * - `direct`: DATABASE_URL = the primary, no pooler (the rest of the bench's set-up);
 * - `pooler`: DATABASE_URL = PgBouncer, DATABASE_DIRECT_URL = the primary, no replica;
 * - `pooler + replica`: the same with DATABASE_READ_URL = the replica.
 *
 * The loads: team A's ordinary history at 16 connections (a read the replica serves) and team
 * B's template sends at 16 connections (writes: always the primary), each alone and then both at
 * once, plus team A's conversation list at 16 connections. Sends and history belong to different
 * teams on purpose: a team that has just written through a process reads from the primary until
 * the replica replays its write (read-your-writes, db/replica.ts), so the history of the sending
 * team would not be a replica load. Each load has its own web process (history and list on one,
 * sends on the other), so a process's event loop is not what the two loads fight over.
 *
 * Beside each row's usual columns (web process CPU per request, p50/p99), the note gives what each
 * server spent per request — the primary's and the replica's whole cluster CPU (every backend,
 * the WAL sender and the replay included, read from /proc) and PgBouncer's — and the
 * transactions each database committed per request, which show where the reads went. Those are
 * the figures that transfer to separate machines: on this one all of it shares 2 cores.
 */
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { spawnSync } from "node:child_process";
import postgres from "postgres";
import type { RawRequest } from "autocannon";
import { FULL, QUICK, BENCH_TEMPLATE, generateDataset, type BenchData } from "./dataset";
import { load, type Measure } from "./load";
import { ROOT, freePort, serverCpuMs, startProcess, stopChild, type Proc } from "./processes";
import { historyPath, sendBody } from "./scenarios";

/**
 * Ports of the throwaway servers: their own (5432 is the machine's cluster, 25432/25433/26432 the
 * scale pass's, which may run at the same time), below Linux's ephemeral range (32768–60999) so
 * no outgoing connection holds one when a server binds it. BENCH_REPLICA_PORTS=primary,replica,pooler
 * overrides them.
 */
const PORTS = (() => {
  const [primary, replica, pooler] = (process.env.BENCH_REPLICA_PORTS ?? "27432,27433,28432").split(",").map(Number);
  return { primary, replica, pooler };
})();
const DB = "wa_bench";
const CLUSTER_SCRIPT = path.join(ROOT, "scripts", "pg-cluster.sh");
const CONNECTIONS = 16;
const SEND_SAMPLE = 2000;

type Cluster = {
  dir: string;
  primaryUrl: string;
  replicaUrl: string;
  poolerUrl: string;
  /** The postmaster of each cluster and PgBouncer, read at start (for their CPU). */
  pids: { primary: number; replica: number; pooler: number };
  stop: () => void;
};

function portFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once("error", () => resolve(false));
    srv.listen(port, "127.0.0.1", () => srv.close(() => resolve(true)));
  });
}

const readPid = (file: string) => Number(fs.readFileSync(file, "utf8").split("\n")[0]);

/**
 * Starts the three servers. The folder goes at the end whatever happens: `stop` is called by the
 * caller's finally, and by the SIGINT/SIGTERM handler this installs (Ctrl-C skips finally blocks).
 */
async function startCluster(onSignal: () => void): Promise<Cluster> {
  for (const [name, port] of Object.entries(PORTS)) {
    if (!Number.isInteger(port) || !(await portFree(port)))
      throw new Error(`--replica: port ${port} (${name}) is taken; set BENCH_REPLICA_PORTS=primary,replica,pooler`);
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "wa-bench-replica-"));
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    spawnSync("bash", [CLUSTER_SCRIPT, "stop", dir], { stdio: "inherit" });
    process.off("SIGINT", onInterrupt);
    process.off("SIGTERM", onInterrupt);
  };
  const onInterrupt = () => {
    console.error("\nInterrupted: stopping the bench's servers and removing their folder…");
    onSignal();
    stop();
    process.exit(130);
  };
  process.on("SIGINT", onInterrupt);
  process.on("SIGTERM", onInterrupt);
  console.log(`Starting primary :${PORTS.primary}, replica :${PORTS.replica}, PgBouncer :${PORTS.pooler} in ${dir}`);
  // Durable (fsync on), as the machine's cluster the rest of the bench runs on: a send's commit
  // pays its WAL flush there too.
  const r = spawnSync("bash", [CLUSTER_SCRIPT, "start", dir, String(PORTS.primary), String(PORTS.replica), String(PORTS.pooler)], {
    stdio: "inherit",
    env: { ...process.env, PG_CLUSTER_DURABLE: "1" },
  });
  if (r.status !== 0) {
    stop();
    throw new Error(`scripts/pg-cluster.sh start failed (exit ${r.status ?? r.signal})`);
  }
  const url = (port: number) => `postgres://postgres@127.0.0.1:${port}/${DB}`;
  try {
    return {
      dir,
      primaryUrl: url(PORTS.primary),
      replicaUrl: url(PORTS.replica),
      poolerUrl: url(PORTS.pooler),
      pids: {
        primary: readPid(path.join(dir, "primary", "postmaster.pid")),
        replica: readPid(path.join(dir, "replica", "postmaster.pid")),
        pooler: readPid(path.join(dir, "pgbouncer.pid")),
      },
      stop,
    };
  } catch (err) {
    stop();
    throw err;
  }
}

type Sql = postgres.Sql;
const SERVERS = ["primary", "replica", "pooler"] as const;
type Server = (typeof SERVERS)[number];

/**
 * What the three servers spent between start() and stop(): CPU of each (the clusters whole, so
 * WAL sending and replay count) and the transactions each database committed, with the most
 * replication lag the primary reported meanwhile (pg_stat_replication.replay_lag, sampled).
 */
function serversMeter(cluster: Cluster, primary: Sql, replica: Sql) {
  const cpu = () => ({
    primary: serverCpuMs(cluster.pids.primary),
    replica: serverCpuMs(cluster.pids.replica),
    pooler: serverCpuMs(cluster.pids.pooler),
  });
  const commits = async (sql: Sql) =>
    Number((await sql`select xact_commit::bigint as n from pg_stat_database where datname = current_database()`)[0].n);
  let cpu0 = cpu();
  let tx0 = { primary: 0, replica: 0 };
  let t0 = 0;
  let maxLagMs = 0;
  let timer: ReturnType<typeof setInterval> | undefined;
  let started = false;
  return {
    async start() {
      // Two loads at once call this twice: the first starts the window.
      if (started) return;
      started = true;
      tx0 = { primary: await commits(primary), replica: await commits(replica) };
      cpu0 = cpu();
      t0 = performance.now();
      timer = setInterval(() => {
        primary`select coalesce(max(extract(epoch from replay_lag)), 0)::float8 * 1000 as ms from pg_stat_replication`.then(
          ([row]) => (maxLagMs = Math.max(maxLagMs, Number(row.ms))),
          () => {},
        );
      }, 250);
    },
    async stop() {
      clearInterval(timer);
      const c = cpu();
      const seconds = (performance.now() - t0) / 1000;
      const tx = { primary: (await commits(primary)) - tx0.primary, replica: (await commits(replica)) - tx0.replica };
      const cpuMs = Object.fromEntries(SERVERS.map((s) => [s, c[s] - cpu0[s]])) as Record<Server, number>;
      return { cpuMs, tx, seconds, maxLagMs: Math.round(maxLagMs) };
    },
  };
}
type Spent = Awaited<ReturnType<ReturnType<typeof serversMeter>["stop"]>>;

const round2 = (n: number) => Math.round(n * 100) / 100;
const pct = (after: number, before: number) => (before ? Math.round(((after - before) / before) * 100) : 0);

/** The servers' side of one load alone: per answer, where it went. */
function perRequest(spent: Spent, answers: number): NonNullable<Measure["servers"]> {
  const per = (n: number) => (answers ? round2(n / answers) : 0);
  return {
    perRequest: {
      primaryCpuMs: per(spent.cpuMs.primary),
      replicaCpuMs: per(spent.cpuMs.replica),
      poolerCpuMs: per(spent.cpuMs.pooler),
      primaryTx: per(spent.tx.primary),
      replicaTx: per(spent.tx.replica),
    },
    maxReplayLagMs: spent.maxLagMs,
  };
}

/** The servers' side of two loads at once: each server's busy cores (per answer would mix the two). */
function busy(spent: Spent): NonNullable<Measure["servers"]> {
  const cores = (s: Server) => round2(spent.cpuMs[s] / 1000 / spent.seconds);
  return { busyCores: { primary: cores("primary"), replica: cores("replica"), pooler: cores("pooler") }, maxReplayLagMs: spent.maxLagMs };
}

function serversNote(servers: NonNullable<Measure["servers"]>): string {
  const p = servers.perRequest;
  if (p)
    return (
      `per answer: primary ${p.primaryCpuMs.toFixed(2)} ms CPU, replica ${p.replicaCpuMs.toFixed(2)} ms, PgBouncer ${p.poolerCpuMs.toFixed(2)} ms; ` +
      `transactions: primary ${p.primaryTx.toFixed(2)}, replica ${p.replicaTx.toFixed(2)}`
    );
  const b = servers.busyCores!;
  return `both loads: primary ${b.primary.toFixed(2)} cores busy, replica ${b.replica.toFixed(2)}, PgBouncer ${b.pooler.toFixed(2)}; replay lag at most ${servers.maxReplayLagMs} ms`;
}

function togetherNote(t: NonNullable<Measure["together"]>, now: Measure): string {
  const sign = (n: number) => (n >= 0 ? `+${n}` : String(n));
  const change = t.lostPct >= 0 ? `lost ${t.lostPct} %` : `gained ${-t.lostPct} % (noise)`;
  return `${change} of its throughput alone (${t.throughputAlone} → ${now.throughput}), p99 ${t.p99Alone} → ${now.p99} ms (${sign(t.p99GrowthPct)} %)`;
}

type Ctx = { data: BenchData; duration: number; primary: Sql; replica: Sql; cluster: Cluster; sendTo: string[] };
type Pair = { history: Proc; sends: Proc };

const auth = (token: string) => ({ authorization: `Bearer ${token}` });

function historyOptions(ctx: Ctx, server: Proc, label: string) {
  const { data } = ctx;
  const headers = auth(data.teamA.token);
  const first = historyPath(data, data.ordinary[0]);
  return {
    scenario: `history ordinary, ${label}`,
    target: "app" as const,
    url: server.url,
    connections: CONNECTIONS,
    duration: ctx.duration,
    serverPid: server.child.pid!,
    headers,
    requests: [
      {
        method: "GET" as const,
        path: first,
        setupRequest: (req: RawRequest) => ({
          ...req,
          path: historyPath(data, data.ordinary[Math.floor(Math.random() * data.ordinary.length)]),
        }),
      },
    ],
  };
}

/** Team B's template sends on its own number (numbers[2]) to its own contacts. */
function sendOptions(ctx: Ctx, server: Proc, label: string) {
  const { data } = ctx;
  const headers = { ...auth(data.teamB.token), "content-type": "application/json" };
  const body = () => sendBody(data, ctx.sendTo[Math.floor(Math.random() * ctx.sendTo.length)], 2);
  return {
    scenario: `template send (team B), ${label}`,
    target: "app" as const,
    url: server.url,
    connections: CONNECTIONS,
    duration: ctx.duration,
    serverPid: server.child.pid!,
    unit: "sends/s",
    headers,
    requests: [
      {
        method: "POST" as const,
        path: "/api/v1/message_templates/send",
        setupRequest: (req: RawRequest) => ({ ...req, body: body() }),
      },
    ],
  };
}

const answersOf = (m: Measure) => m.reqPerSec * m.durationSeconds;
const withNote = (m: Measure, note: string): Measure => ({ ...m, note: [m.note, note].filter(Boolean).join("; ") });

/** One GET or POST load alone, with the servers' side on the row and in its note. */
async function alone(ctx: Ctx, opts: Parameters<typeof load>[0]): Promise<Measure> {
  const meter = serversMeter(ctx.cluster, ctx.primary, ctx.replica);
  const m = await load({ ...opts, onMeasureStart: () => meter.start() });
  const servers = perRequest(await meter.stop(), answersOf(m));
  return withNote({ ...m, servers }, serversNote(servers));
}

/** History and sends at once (warm-up and measure aligned), each row saying what it lost. */
async function together(ctx: Ctx, pair: Pair, label: string, historyAlone: Measure, sendsAlone: Measure): Promise<Measure[]> {
  const meter = serversMeter(ctx.cluster, ctx.primary, ctx.replica);
  const [h, s] = await Promise.all([
    load({ ...historyOptions(ctx, pair.history, `${label}, with sends`), onMeasureStart: () => meter.start() }),
    load({ ...sendOptions(ctx, pair.sends, `${label}, with history`), onMeasureStart: () => meter.start() }),
  ]);
  const servers = busy(await meter.stop());
  const beside = (m: Measure, before: Measure): Measure => {
    const t = {
      throughputAlone: before.throughput,
      p99Alone: before.p99,
      lostPct: -pct(m.throughput, before.throughput),
      p99GrowthPct: pct(m.p99 ?? 0, before.p99 ?? 0),
    };
    return withNote({ ...m, together: t, servers }, `${togetherNote(t, m)}; ${serversNote(servers)}`);
  };
  return [beside(h, historyAlone), beside(s, sendsAlone)];
}

function conversationsOptions(ctx: Ctx, server: Proc, label: string) {
  return {
    scenario: `conversations list, ${label}`,
    target: "app" as const,
    url: server.url,
    connections: CONNECTIONS,
    duration: ctx.duration,
    serverPid: server.child.pid!,
    headers: auth(ctx.data.teamA.token),
    requests: [{ method: "GET" as const, path: "/api/v1/conversations?per_page=20" }],
  };
}

/**
 * Runs the replica mode end to end and returns the data set it made; everything it started is stopped and its
 * folder removed before it returns or throws (and on Ctrl-C).
 */
export async function replicaMode(opts: {
  appDir: string;
  quick: boolean;
  duration: number;
  serverEnv: Record<string, string>;
  /** Called with each row as it is measured. */
  record: (m: Measure) => void;
}): Promise<BenchData> {
  if (process.env.DATABASE_URL) console.log("--replica: DATABASE_URL is ignored; the mode runs on servers of its own");
  for (const name of ["DATABASE_DIRECT_URL", "DATABASE_READ_URL", "DATABASE_READ_POOLED"]) delete process.env[name];
  const procs: Proc[] = [];
  const cluster = await startCluster(() => {
    // Ctrl-C: the servers get SIGINT from the terminal too, but not when the bench alone is signalled.
    for (const p of procs) p.child.kill("SIGTERM");
  });
  const { record } = opts;
  let primary: Sql | undefined;
  let replica: Sql | undefined;
  try {
    const admin = postgres(cluster.primaryUrl.replace(/\/[^/]+$/, "/postgres"), { max: 1, onnotice: () => {} });
    await admin.unsafe(`create database ${DB}`);
    await admin.end({ timeout: 5 });
    // The bench's own process (migrations, tokens, numbers) talks to the primary directly.
    process.env.DATABASE_URL = cluster.primaryUrl;
    const { runMigrations } = await import("@/db/migrate");
    const { closeDb } = await import("@/db/client");
    await runMigrations();
    primary = postgres(cluster.primaryUrl, { max: 1, onnotice: () => {} });
    const sql = primary;
    console.log("Generating the data set on the primary…");
    const data = await generateDataset(async (q) => [...(await sql.unsafe(q))] as Record<string, unknown>[], opts.quick ? QUICK : FULL, {
      fastLoad: true,
    });
    await closeDb();
    // Team B sends the same template from its own number to its own contacts (see the file's comment).
    await sql.unsafe(`insert into templates (team_id, name, language, category, components)
      select ${data.teamB.id}, name, language, category, components from templates where team_id = ${data.teamA.id} and name = '${BENCH_TEMPLATE}'`);
    const sendTo = (
      await sql.unsafe(`select customer_number from contacts where team_id = ${data.teamB.id} order by random() limit ${SEND_SAMPLE}`)
    ).map((r) => String(r.customer_number));

    // The replica has the data set once it has replayed the primary's WAL up to here.
    const t0 = performance.now();
    const [{ lsn }] = await sql`select pg_current_wal_lsn()::text as lsn`;
    replica = postgres(cluster.replicaUrl, { max: 1, onnotice: () => {} });
    for (;;) {
      const [row] = await replica`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as done`;
      if (row.done) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    data.timings["replica catch-up"] = Math.round(performance.now() - t0);
    console.log(`  replica catch-up: ${(data.timings["replica catch-up"] / 1000).toFixed(1)} s`);
    // The data set's WAL is flushed to the tables now (a restartpoint on the replica), not by a
    // checkpoint in the middle of the first loads: each server's CPU per answer counts the whole
    // cluster, its checkpointer included.
    const t1 = performance.now();
    await sql`checkpoint`;
    await replica`checkpoint`;
    data.timings.checkpoints = Math.round(performance.now() - t1);
    console.log(`  checkpoints: ${(data.timings.checkpoints / 1000).toFixed(1)} s`);

    const ctx: Ctx = { data, duration: opts.duration, primary: sql, replica, cluster, sendTo };
    const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
    const serve = async (name: string, env: Record<string, string>) => {
      const port = await freePort();
      const p = await startProcess(name, [NEXT_BIN, "start", opts.appDir, "-p", String(port), "-H", "127.0.0.1"], {
        cwd: opts.appDir,
        port,
        env: { ...opts.serverEnv, ...env },
        readyPath: "/api/bench/empty",
      });
      procs.push(p);
      return p;
    };
    const deployments: { label: string; env: Record<string, string> }[] = [
      { label: "direct", env: { DATABASE_URL: cluster.primaryUrl } },
      { label: "pooler", env: { DATABASE_URL: cluster.poolerUrl, DATABASE_DIRECT_URL: cluster.primaryUrl } },
      {
        label: "pooler + replica",
        // The replica is reached directly, as docs/deployment.md advises: its statements stay named.
        env: {
          DATABASE_URL: cluster.poolerUrl,
          DATABASE_DIRECT_URL: cluster.primaryUrl,
          DATABASE_READ_URL: cluster.replicaUrl,
          DATABASE_READ_POOLED: "0",
        },
      },
    ];
    console.log("Scenarios (history: team A; sends: team B; list: team A):");
    for (const d of deployments) {
      const pair: Pair = {
        history: await serve(`next start (${d.label}, reads)`, d.env),
        sends: await serve(`next start (${d.label}, sends)`, d.env),
      };
      if (d.env.DATABASE_READ_URL) await replicaInUse(pair.history);
      const h = await alone(ctx, historyOptions(ctx, pair.history, `${d.label}, alone`));
      record(h);
      const s = await alone(ctx, sendOptions(ctx, pair.sends, `${d.label}, alone`));
      record(s);
      for (const m of await together(ctx, pair, d.label, h, s)) record(m);
      record(await alone(ctx, conversationsOptions(ctx, pair.history, d.label)));
      for (const p of [pair.history, pair.sends]) {
        await stopChild(p.child);
        procs.splice(procs.indexOf(p), 1);
      }
    }
    return data;
  } finally {
    for (const p of procs) await p.stop().catch(() => {});
    await primary?.end({ timeout: 5 }).catch(() => {});
    await replica?.end({ timeout: 5 }).catch(() => {});
    cluster.stop();
  }
}

/** Waits until the server's health route says reads go to the replica (its first probe answered). */
async function replicaInUse(server: Proc) {
  for (let i = 0; i < 50; i++) {
    const res = await fetch(`${server.url}/api/v1/health`).catch(() => null);
    const body = res ? ((await res.json().catch(() => null)) as { replica?: { in_use?: boolean } } | null) : null;
    if (body?.replica?.in_use) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${server.name}: the health route never reported the replica in use`);
}

/**
 * The reading of a `--replica` run, printed under its table and kept in the JSON: on this machine
 * every server shares the same cores, so the losses are mostly that sharing; what transfers to
 * servers of their own is each one's CPU per answer, turned here into a CPU-bound ceiling per core.
 */
export function replicaSummary(results: Measure[], cpus: number): string[] {
  const row = (scenario: string) => results.find((m) => m.scenario === scenario && m.available);
  const per = (scenario: string) => row(scenario)?.servers?.perRequest;
  const perCore = (ms: number | undefined) => (ms ? Math.round(1000 / ms).toLocaleString("en") : "–");
  const lines = [
    `The primary, the replica, PgBouncer, the web processes and the load generator all shared this machine's ${cpus} cores:`,
    "a load's loss beside the other is mostly that sharing, not what separate servers would lose to each other.",
    "What transfers to separate machines is each server's CPU per answer (the notes), as a CPU-bound ceiling per core:",
  ];
  const h = per("history ordinary, pooler + replica, alone");
  const s = per("template send (team B), pooler + replica, alone");
  if (h && s) {
    lines.push(
      `- with the replica, a history page costs the replica ${h.replicaCpuMs} ms and the primary ${h.primaryCpuMs} ms: about ${perCore(h.replicaCpuMs)} pages/s per replica core;`,
      `  a send costs the primary ${s.primaryCpuMs} ms (about ${perCore(s.primaryCpuMs)} sends/s per primary core) and the replica ${s.replicaCpuMs} ms to replay;`,
      `  PgBouncer ${s.poolerCpuMs} ms per send, ${h.poolerCpuMs} ms per page (about ${perCore(s.poolerCpuMs)} sends/s on its one core).`,
    );
  }
  const direct = per("history ordinary, direct, alone");
  const pooled = per("history ordinary, pooler, alone");
  if (direct && pooled)
    lines.push(
      `- the pooler's price on a history page: the primary spends ${direct.primaryCpuMs} ms direct (named statements) and ${pooled.primaryCpuMs} ms through PgBouncer (unnamed: parsed and planned each time), plus ${pooled.poolerCpuMs} ms in PgBouncer.`,
    );
  const listDirect = row("conversations list, direct");
  const listPooled = row("conversations list, pooler");
  if (listDirect && listPooled)
    lines.push(
      `- conversation list × 16: direct ${listDirect.throughput} req/s, p99 ${listDirect.p99} ms; through PgBouncer ${listPooled.throughput} req/s, p99 ${listPooled.p99} ms` +
        ` (primary ${listDirect.servers?.perRequest?.primaryCpuMs} → ${listPooled.servers?.perRequest?.primaryCpuMs} ms CPU per answer).`,
    );
  return lines;
}
