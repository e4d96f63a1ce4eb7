/**
 * `npm run bench [-- --quick] [-- --pglite] [-- --no-build] [-- --duration=10] [-- --keep] [-- --repeat=3]`
 *
 * One command: builds the app if needed, generates the data set with SQL, starts `next start`
 * and the baselines, runs every scenario with autocannon, prints a table and writes
 * bench/results/<timestamp>.json and bench/results/latest.json. See bench/README.md.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import postgres from "postgres";
import { SNAPSHOT_DIR, ensureBuild, snapshotBuild } from "./build";
import { openBenchDatabase } from "./database";
import { FULL, QUICK, SCALES, generateDataset, recoverDataset, type BenchData, type Exec } from "./dataset";
import type { Measure } from "./load";
import { ROOT, benchWebhookFastLane, freePort, startProcess, stopChild, type Proc } from "./processes";
import { printTable, withRatios } from "./report";
import { authLoad, emptyLoad, historyLoad, labelLoad, rateLimitLoad, sendLoad, bulkSendLoad, type ScenarioCtx } from "./scenarios";
import { clusterScenarios } from "./cluster-scenario";
import { workerScenarios } from "./worker-scenario";
import { conversationsLoad, eventsScenario, LIST_VARIANT_NAMES, reportsLoad, threadLoad } from "./inbox-scenarios";
import { importScenario, statsLoad } from "./audience-scenarios";
import { broadcastScenario } from "./broadcast-scenario";
import { statusIngestScenario, statusWritesScenario } from "./status-scenarios";
import { replicaMode, replicaSummary } from "./replica-mode";
import { scaleSummary } from "./scale-summary";
import { vacuumAsAutovacuumWould } from "./autovacuum";
import { medianReadings, repeatCount } from "./repeat";

const args = new Set(process.argv.slice(2));
const argValue = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split("=")[1];
const scale = argValue("scale");
if (scale !== undefined && !SCALES[scale]) throw new Error(`--scale must be one of ${Object.keys(SCALES).join(", ")}`);
const quick = args.has("--quick") || scale === "500k";
const sizes = scale ? SCALES[scale] : quick ? QUICK : FULL;
/** The 50 M set is built for the reads its target compares: history, the list and stats at 16 connections. */
const big = sizes.messages > FULL.messages;
const pglite = args.has("--pglite");
const replica = args.has("--replica");
const duration = Number(argValue("duration") ?? (quick ? 5 : 10));
const only = argValue("only")?.split(",") ?? (big ? ["history", "conversations", "stats"] : undefined);
const want = (name: string) => !only || only.includes(name);
/** --repeat=N: the reads at 16 connections and the status write ratio, measured N times, judged by the median (bench/repeat.ts). */
const repeat = repeatCount(process.argv.slice(2));
const NEXT_BIN = path.join(ROOT, "node_modules", "next", "dist", "bin", "next");
const BULK_PATH = process.env.BENCH_BULK_PATH || "/api/v1/message_templates/send_bulk";

process.env.APP_ENCRYPTION_KEY ||= "bench-encryption-key";
process.env.SEED_DEMO = "0";
process.env.NEXT_TELEMETRY_DISABLED = "1";

/** Every `next start` of the bench: its database settings are added per server. */
const SERVER_ENV = {
  APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY!,
  SEED_DEMO: "0",
  WORKER_IN_PROCESS: "0",
  BENCH_ROUTES: "1",
  // The limiter is priced on its own below; a 600/min budget would cap every scenario at 10/s.
  RATE_LIMIT_PER_MINUTE: "0",
  NODE_ENV: "production",
  // Meta's webhook posts take the fast lane (lib/meta-webhooks/fast-lane.ts), as docs/deployment.md
  // advises for a busy number; BENCH_WEBHOOK_FAST_LANE=0 measures them through Next's pipeline.
  WEBHOOK_FAST_LANE: benchWebhookFastLane(),
};

const recordInto = (results: Measure[]) => (m: Measure) => {
  results.push(m);
  logMeasure(m);
};

function logMeasure(m: Measure) {
  const shown = !m.available
    ? m.note
    : m.p99 === null
      ? `${m.throughput} ${m.unit}`
      : `${m.throughput} ${m.unit}, p99 ${m.p99} ms, non-2xx ${m.non2xx}`;
  console.log(`  ${m.scenario} [${m.target}] × ${m.connections}: ${shown}`);
}

/** One more reading of each read the 50 M target compares (history, the list, stats) at `connections`. */
async function readsAgain(ctx: ScenarioCtx, connections: number): Promise<Measure[]> {
  const out: Measure[] = [];
  const take = (m: Measure) => {
    logMeasure(m);
    out.push(m);
  };
  for (const kind of ["heavy", "ordinary"] as const) {
    if (!want("history")) continue;
    take(await historyLoad(ctx, ctx.app, "app", kind, connections));
    if (ctx.floor) take(await historyLoad(ctx, ctx.floor, "floor", kind, connections));
  }
  if (want("conversations")) for (const v of LIST_VARIANT_NAMES) take(await conversationsLoad(ctx, connections, v));
  if (want("stats")) take(await statsLoad(ctx, connections));
  return out;
}

/** The load average when the first scenario began (after the build, and after --wait-quiet). */
let loadAtReads: number[] | undefined;

async function main() {
  const started = new Date();
  const load0 = os.loadavg();
  const on = replica ? "a primary, a streaming replica and PgBouncer of its own" : pglite ? "PGlite" : "Postgres";
  console.log(`npm run bench — ${big ? `${scale} (--scale)` : quick ? "quick" : "full"} data set on ${on}, ${duration} s per load`);
  if (replica && pglite) throw new Error("--replica needs PostgreSQL: it cannot run with --pglite");
  // --reuse-snapshot serves the copy a previous `--build-only` made, whatever happened to .next since.
  const reuse = args.has("--reuse-snapshot") && fs.existsSync(path.join(SNAPSHOT_DIR, ".next", "BUILD_ID"));
  const build = reuse ? "snapshot reused" : args.has("--no-build") ? "skipped" : ensureBuild(args.has("--build"));
  const appDir = reuse ? SNAPSHOT_DIR : snapshotBuild();
  if (args.has("--build-only")) {
    console.log(`Build ${fs.readFileSync(path.join(appDir, ".next", "BUILD_ID"), "utf8")} copied to ${appDir}`);
    return;
  }
  if (replica) {
    const results: Measure[] = [];
    const data = await replicaMode({ appDir, quick, duration, serverEnv: SERVER_ENV, record: recordInto(results) });
    writeReport({
      started,
      load0,
      build,
      data,
      results,
      database: "postgres: primary + streaming replica + PgBouncer (--replica)",
      summary: replicaSummary(results, os.availableParallelism()),
    });
    return;
  }

  const db = pglite ? null : await openBenchDatabase();
  const pgliteDir = path.join(ROOT, ".data", `bench-pglite-${Date.now()}`);
  if (db) process.env.DATABASE_URL = db.url;
  else {
    delete process.env.DATABASE_URL;
    process.env.PGLITE_DIR = pgliteDir;
  }
  const procs: Proc[] = [];
  let admin: postgres.Sql | null = null;
  const results: Measure[] = [];
  let data: BenchData | undefined;
  try {
    const { runMigrations } = await import("@/db/migrate");
    const { getHandle, closeDb } = await import("@/db/client");
    await runMigrations();
    let exec: Exec;
    if (db) {
      // One session for the whole build, never recycled: the build's temporary tables and session
      // settings live in it, and a 50 M build outlasts postgres.js's default max_lifetime (30 to
      // 60 minutes), after which a new session lost `bench_contacts` (2026-11-28, 60 min build).
      admin = postgres(db.url, { max: 1, max_lifetime: null, idle_timeout: 0, onnotice: () => {} });
      const sql = admin;
      exec = async (q) => [...(await sql.unsafe(q))] as Record<string, unknown>[];
    } else {
      const client = (await getHandle()).db as unknown as {
        $client: { query: (q: string) => Promise<{ rows: Record<string, unknown>[] }> };
      };
      exec = async (q) => (await client.$client.query(q)).rows;
    }
    // --resume: a kept database's set (DATABASE_URL), measured again without building it anew.
    if (args.has("--resume")) {
      if (!db || db.owned) throw new Error("--resume needs DATABASE_URL: the kept bench database to measure again");
      console.log("Resuming the data set already in that database…");
      data = await recoverDataset(exec, sizes, { reports: want("reports") });
    } else {
      console.log("Generating the data set…");
      data = await generateDataset(exec, sizes, { fastLoad: !!db?.owned, reports: want("reports") });
    }
    // PGlite is one process: the server takes the folder from here on.
    await closeDb();
    // --wait-quiet: a long build (the 50 M set) may overlap other work; its reads are measured only
    // once the machine is quiet again, or they would measure the other work.
    if (args.has("--wait-quiet")) await waitQuiet();
    // Kept in the report: scale-summary.ts warns when a 5 M reference's reads began on a busy machine.
    loadAtReads = os.loadavg();

    const env = { ...(db ? { DATABASE_URL: db.url } : { PGLITE_DIR: pgliteDir }), ...SERVER_ENV };
    const appPort = await freePort();
    // --profile: a V8 CPU profile of the single server, written when it stops (see README).
    const profileDir = path.join(ROOT, ".data", "bench-profiles");
    if (args.has("--profile")) process.env.BENCH_PROFILE_DIR = profileDir;
    const profile = args.has("--profile") ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
    const app = await startProcess("next start", [...profile, NEXT_BIN, "start", appDir, "-p", String(appPort), "-H", "127.0.0.1"], {
      cwd: appDir,
      port: appPort,
      env,
      readyPath: "/api/bench/empty",
    });
    procs.push(app);
    let floor: Proc | undefined;
    if (db) {
      const floorPort = await freePort();
      floor = await startProcess("floor", ["--conditions=react-server", "--import", "tsx", path.join(ROOT, "bench", "floor-server.ts")], {
        port: floorPort,
        // The app's settings: the send service reads them (lib/config.ts) as the app does.
        env,
        readyPath: "/health",
      });
      procs.push(floor);
    }
    const ctx: ScenarioCtx = {
      data,
      app,
      floor,
      duration,
      repeat,
      query: admin ? async (q) => [...(await admin!.unsafe(q))] as Record<string, unknown>[] : undefined,
      databaseUrl: db?.url,
    };
    const record = recordInto(results);

    console.log("Scenarios:");
    // The 50 M set is compared with the 5 M set's p99 at 16 connections (bench/README.md); each read runs
    // at 1 connection first, as in the 5 M run, so both servers are as warm when it is measured.
    const levels = big ? [1, 16] : [1, 16, 64];
    for (const c of levels) {
      if (want("empty")) record(await emptyLoad(ctx, app, c));
      if (want("auth")) record(await authLoad(ctx, app, c));
      for (const kind of ["heavy", "ordinary"] as const) {
        if (!want("history")) continue;
        record(await historyLoad(ctx, app, "app", kind, c));
        if (floor) record(await historyLoad(ctx, floor, "floor", kind, c));
      }
    }
    if (want("ratelimit")) record(await rateLimitLoad(ctx, 16));
    // Every write scenario, and every one after the first writes, starts from the dead rows
    // autovacuum would have left (autovacuum.ts: this machine's server runs without it).
    const settled = async <T>(measure: () => Promise<T>) => {
      await vacuumAsAutovacuumWould(ctx);
      return measure();
    };
    if (want("send"))
      for (const c of [16, 64]) {
        record(await settled(() => sendLoad(ctx, c)));
        if (floor) record(await settled(() => sendLoad(ctx, c, floor, "floor")));
      }
    if (want("bulk")) record(await settled(() => bulkSendLoad(ctx, 4, BULK_PATH, 1000)));
    if (want("labels")) record(await settled(() => labelLoad(ctx, 64)));
    await vacuumAsAutovacuumWould(ctx);
    if (want("conversations")) for (const c of [1, 16]) for (const v of LIST_VARIANT_NAMES) record(await conversationsLoad(ctx, c, v));
    if (want("thread"))
      for (const c of [1, 16])
        for (const k of ["heavy", "ordinary"] as const) {
          record(await threadLoad(ctx, c, k));
          if (floor) record(await threadLoad(ctx, c, k, "floor"));
        }
    if (want("reports")) for (const c of [1, 16]) for (const w of ["summary", "agents"] as const) record(await reportsLoad(ctx, c, w));
    if (want("events")) record(await eventsScenario(ctx));
    if (want("stats")) for (const c of [1, 16]) record(await statsLoad(ctx, c));
    if (repeat > 1) {
      // The first round is the readings above; the others follow at once, each read once per round.
      const later: Measure[][] = [];
      for (let round = 2; round <= repeat; round++) {
        console.log(`Reads at 16 connections again, round ${round} of ${repeat}:`);
        later.push(await readsAgain(ctx, 16));
      }
      results.splice(0, results.length, ...medianReadings(results, later));
    }
    if (want("import")) for (const m of await settled(() => importScenario(ctx))) record(m);
    if (want("broadcast")) for (const m of await settled(() => broadcastScenario(ctx))) record(m);
    if (want("status-writes")) for (const m of await settled(() => statusWritesScenario(ctx))) record(m);
    if (want("status-ingest")) for (const m of await settled(() => statusIngestScenario(ctx))) record(m);

    await stopChild(app.child);
    procs.splice(procs.indexOf(app), 1);
    if (db && want("ratelimit")) {
      // The limiter's price on a real route: the same history load on two fresh servers, warmed
      // alike, one with the limiter off and one with it on (a budget no run can spend). Comparing
      // against the long-warmed main server instead would price the JIT, not the limiter.
      for (const [label, limit] of [
        ["off", "0"],
        ["on", "1000000000"],
      ] as const) {
        const port = await freePort();
        const server = await startProcess(
          `next start (rate limit ${label})`,
          [NEXT_BIN, "start", appDir, "-p", String(port), "-H", "127.0.0.1"],
          {
            cwd: appDir,
            port,
            env: { ...env, RATE_LIMIT_PER_MINUTE: limit },
            readyPath: "/api/bench/empty",
          },
        );
        procs.push(server);
        const m = await historyLoad({ ...ctx, app: server }, server, "app", "ordinary", 16);
        record({ ...m, scenario: `history ordinary, fresh server, rate limit ${label}` });
        await stopChild(server.child);
        procs.splice(procs.indexOf(server), 1);
      }
    }
    if (db && want("cluster")) for (const m of await clusterScenarios(ctx, { ...env, CLUSTER_APP_DIR: appDir })) record(m);
    if (db && want("worker")) for (const m of await workerScenarios(ctx, env)) record(m);
  } finally {
    for (const p of procs) await p.stop().catch(() => {});
    await admin?.end({ timeout: 5 }).catch(() => {});
    if (db?.owned && !args.has("--keep")) await db.drop().catch((err) => console.error("drop failed", err));
    if (pglite && !args.has("--keep")) fs.rmSync(pgliteDir, { recursive: true, force: true });
  }

  writeReport({
    started,
    load0,
    build,
    data,
    results,
    database: pglite ? "pglite" : "postgres",
    summary: big ? scaleSummary(results, data, repeat) : undefined,
  });
}

/** Waits (up to an hour) until the one-minute load average is under half the cores. */
async function waitQuiet() {
  const limit = os.availableParallelism() / 2;
  const until = Date.now() + 3600_000;
  if (os.loadavg()[0] >= limit) console.log(`Waiting for a quiet machine (load average under ${limit})…`);
  while (os.loadavg()[0] >= limit && Date.now() < until) await new Promise((r) => setTimeout(r, 10_000));
  console.log(
    `Load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join("/")} at the first scenario.`,
  );
}

/** Prints the table and writes bench/results/<timestamp>.json and latest.json. */
function writeReport(r: {
  started: Date;
  load0: number[];
  build: string;
  data?: BenchData;
  results: Measure[];
  database: string;
  /** Lines that read the table (printed under it and kept in the JSON). */
  summary?: string[];
}) {
  const { started, load0, build, data, results, summary } = r;
  const rows = withRatios(results);
  printTable(rows);
  if (summary) console.log("\n" + summary.join("\n"));
  const report = {
    date: started.toISOString(),
    finished: new Date().toISOString(),
    mode: { quick, scale: scale ?? null, database: r.database, durationSeconds: duration, build, repeat },
    machine: {
      cpus: os.availableParallelism(),
      node: process.version,
      loadAvgStart: load0,
      loadAvgAtReads: loadAtReads,
      loadAvgEnd: os.loadavg(),
      memTotalMb: Math.round(os.totalmem() / 2 ** 20),
    },
    dataset: data && { sizes: data.sizes, timingsMs: data.timings },
    results: rows,
    summary,
  };
  const dir = path.join(ROOT, "bench", "results");
  fs.mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `${started.toISOString().replace(/[:.]/g, "-")}.json`);
  fs.writeFileSync(file, JSON.stringify(report, null, 2));
  fs.writeFileSync(path.join(dir, "latest.json"), JSON.stringify(report, null, 2));
  console.log(`\nWritten ${path.relative(ROOT, file)} and bench/results/latest.json`);
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
