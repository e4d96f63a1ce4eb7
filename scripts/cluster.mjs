#!/usr/bin/env node
/* global process, console, URL, setTimeout, clearTimeout */
/**
 * Production start on every core: `npm run start:cluster`.
 *
 * One Next.js server per core (Node's cluster module: the primary owns the port and hands each
 * new connection to a worker in turn), plus one delivery worker process (`scripts/worker.ts`)
 * beside them, so the web processes run with WORKER_IN_PROCESS=0. A child that dies is started
 * again; SIGTERM/SIGINT are passed to every child, which drain before exiting (docs/operations.md,
 * "Shutdown": each web process stops taking connections, answers what it holds, ends its event
 * streams with a retry hint; the delivery process finishes or gives back its claims). The primary
 * exits 0 when every child exited 0, else 1; a child still running SHUTDOWN_TIMEOUT_S + 5 s after
 * the signal (its own deadline plus a margin) is killed.
 *
 * Options: -p/--port (or PORT, default 3000), -H/--hostname (default all interfaces),
 * WEB_CONCURRENCY (web processes, default os.availableParallelism()), DELIVERY_WORKERS (default 1,
 * 0 for none), SKIP_MIGRATIONS=1 to skip the one migration run before the servers start.
 */
import cluster from "node:cluster";
import os from "node:os";
import fs from "node:fs";
import path from "node:path";
import { spawn, spawnSync } from "node:child_process";
import { createRequire } from "node:module";

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
// The project to serve; the bench points it at its private copy of the build.
const appDir = process.env.CLUSTER_APP_DIR || root;
const log = (...args) => console.log(`[cluster ${process.pid}]`, ...args);

function readArgs(argv) {
  const opts = { port: Number(process.env.PORT || 3000), hostname: undefined };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "-p" || a === "--port") opts.port = Number(argv[++i]);
    else if (a.startsWith("--port=")) opts.port = Number(a.slice(7));
    else if (a === "-H" || a === "--hostname") opts.hostname = argv[++i];
    else if (a.startsWith("--hostname=")) opts.hostname = a.slice(11);
  }
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    console.error(`Puerto no válido: ${opts.port}`);
    process.exit(2);
  }
  return opts;
}

function countFromEnv(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
}

async function runWebWorker() {
  process.env.NODE_ENV ??= "production";
  process.env.NEXT_PRIVATE_START_TIME ??= String(Date.now());
  const require = createRequire(path.join(root, "package.json"));
  const { nextStart } = require("next/dist/cli/next-start.js");
  await nextStart({ port: Number(process.env.CLUSTER_PORT), hostname: process.env.CLUSTER_HOSTNAME || undefined }, appDir);
}

function runPrimary() {
  if (!process.env.DATABASE_URL) {
    console.error(
      "start:cluster necesita un Postgres real: defina DATABASE_URL (por ejemplo postgres://usuario@host:5432/base).\n" +
        "La base embebida (PGlite) admite un solo proceso; sin DATABASE_URL use `npm start`.",
    );
    process.exit(1);
  }
  if (!fs.existsSync(path.join(appDir, ".next", "BUILD_ID"))) {
    console.error("No hay una compilación de producción: ejecute `npm run build` primero.");
    process.exit(1);
  }
  const { port, hostname } = readArgs(process.argv.slice(2));
  const webCount = countFromEnv("WEB_CONCURRENCY", os.availableParallelism()) || 1;
  const deliveryCount = countFromEnv("DELIVERY_WORKERS", 1);

  if (process.env.SKIP_MIGRATIONS !== "1") {
    // Once here, so N servers starting together do not queue on the migration lock.
    const r = spawnSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/migrate.ts"], {
      cwd: root,
      stdio: "inherit",
    });
    if (r.status !== 0) {
      console.error("Las migraciones fallaron; no se inicia el clúster.");
      process.exit(r.status ?? 1);
    }
  }

  let stopping = false;
  const restarts = new Map();
  // A child that keeps dying right after start waits longer each time, so a broken build or an
  // unreachable database does not become a fork loop.
  const delayFor = (slot) => {
    const n = (restarts.get(slot) ?? 0) + 1;
    restarts.set(slot, n);
    return Math.min(30_000, 500 * 2 ** Math.min(n - 1, 6));
  };
  const calm = (slot) => setTimeout(() => restarts.delete(slot), 60_000).unref();

  cluster.setupPrimary({ exec: new URL(import.meta.url).pathname, args: [] });
  const forkWeb = (slot) => {
    const env = {
      CLUSTER_PORT: String(port),
      CLUSTER_HOSTNAME: hostname ?? "",
      CLUSTER_SLOT: String(slot),
      WORKER_IN_PROCESS: "0",
      // The app's drain (lib/shutdown/) handles the signals, not Next's own handler (as `npm start`).
      NEXT_MANUAL_SIG_HANDLE: "1",
    };
    // Only one server may seed the demo team on an empty database; the others would race it.
    if (slot !== 0) env.SEED_DEMO = "0";
    const worker = cluster.fork(env);
    worker.slot = slot;
    calm(`web${slot}`);
  };
  cluster.on("exit", (worker, code, signal) => {
    if (stopping) return;
    const slot = worker.slot;
    const wait = delayFor(`web${slot}`);
    log(`servidor web ${slot} (pid ${worker.process.pid}) terminó (${signal ?? code}); reinicio en ${wait} ms`);
    setTimeout(() => !stopping && forkWeb(slot), wait);
  });

  const deliveryProcs = new Set();
  const workerScript = path.join(root, "scripts", "worker.ts");
  const startDelivery = (slot) => {
    if (!fs.existsSync(workerScript)) {
      log("scripts/worker.ts no existe: se inicia sin proceso de entrega");
      return;
    }
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", workerScript], {
      cwd: root,
      stdio: "inherit",
      env: process.env,
    });
    deliveryProcs.add(child);
    calm(`delivery${slot}`);
    child.on("exit", (code, signal) => {
      deliveryProcs.delete(child);
      if (stopping) return;
      const wait = delayFor(`delivery${slot}`);
      log(`proceso de entrega ${slot} (pid ${child.pid}) terminó (${signal ?? code}); reinicio en ${wait} ms`);
      setTimeout(() => !stopping && startDelivery(slot), wait);
    });
  };

  for (let i = 0; i < webCount; i++) forkWeb(i);
  for (let i = 0; i < deliveryCount; i++) startDelivery(i);
  log(`${webCount} servidores web en el puerto ${port}, ${deliveryCount} proceso(s) de entrega`);

  const shutdown = (signal) => {
    if (stopping) return;
    stopping = true;
    log(`${signal}: deteniendo los procesos hijos`);
    const webWorkers = Object.values(cluster.workers ?? {});
    const children = [...webWorkers.map((w) => w.process), ...deliveryProcs];
    // The port closes when the last web process closes its server; each reports when it has and
    // waits for this word before telling its clients to leave (lib/shutdown/cluster-port.ts).
    const listening = new Set(webWorkers);
    const portClosed = () => {
      if (listening.size) return;
      for (const w of webWorkers) if (w.isConnected()) w.send("wa:port-closed");
    };
    for (const w of webWorkers) {
      w.on("message", (message) => {
        if (message !== "wa:listener-closed") return;
        listening.delete(w);
        portClosed();
      });
      w.once("exit", () => {
        listening.delete(w);
        portClosed();
      });
    }
    for (const child of children) child.kill(signal);
    // Each child ends itself SHUTDOWN_TIMEOUT_S after the signal; the margin covers a child that
    // cannot (stuck in a synchronous loop). The primary's own exit code says whether all drained.
    const childTimeoutS = Number(process.env.SHUTDOWN_TIMEOUT_S) > 0 ? Number(process.env.SHUTDOWN_TIMEOUT_S) : 25;
    const deadline = setTimeout(
      () => {
        const stuck = children.filter((c) => c.exitCode === null && c.signalCode === null);
        log(`${stuck.length} proceso(s) siguen vivos tras ${childTimeoutS + 5} s: SIGKILL`);
        for (const child of stuck) child.kill("SIGKILL");
        process.exit(1);
      },
      (childTimeoutS + 5) * 1000,
    );
    const exitCode = (c) =>
      c.exitCode !== null || c.signalCode !== null ? Promise.resolve(c.exitCode) : new Promise((r) => c.once("exit", (code) => r(code)));
    Promise.all(children.map(exitCode)).then((codes) => {
      clearTimeout(deadline);
      const failed = codes.filter((code) => code !== 0).length;
      if (failed) log(`${failed} proceso(s) hijo(s) no terminaron limpios (códigos ${codes.join(", ")})`);
      else log("todos los procesos hijos terminaron limpios");
      process.exit(failed ? 1 : 0);
    });
  };
  process.on("SIGTERM", () => shutdown("SIGTERM"));
  process.on("SIGINT", () => shutdown("SIGINT"));
}

if (cluster.isPrimary) runPrimary();
else
  runWebWorker().catch((err) => {
    console.error(err);
    process.exit(1);
  });
