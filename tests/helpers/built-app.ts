import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { randomBytes } from "node:crypto";
import { ensureBuild, snapshotBuild } from "@/bench/build";
import { freePort, ROOT } from "@/bench/processes";

/**
 * The built app under `next start`, for tests about the process itself (signals, exit codes),
 * which the in-process test server (helpers/server.ts) cannot show. The build is the bench's:
 * `next build` only when a source is newer than `.next` (minutes; the caller's hook timeout must
 * allow it), then a private copy, so a build or `next dev` started meanwhile in this tree cannot
 * change the files under a running test.
 */
export function prepareBuiltApp(name: string): string {
  ensureBuild(false);
  return snapshotBuild(path.join(ROOT, ".data", `test-app-${name}`));
}

export type AppProcess = {
  child: ChildProcess;
  url: string;
  token: string;
  /** stdout and stderr so far (the last 50 KB). */
  output: () => string;
  /** Resolves with the exit code (or signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The PGlite folder (null on DATABASE_URL), readable once the process has exited. */
  pgliteDir: string | null;
  /** On DATABASE_URL: the throwaway database of this process (null on PGlite). */
  databaseUrl: string | null;
  cleanup: () => Promise<void>;
};

/**
 * A database of its own beside DATABASE_URL's, so the process's in-process worker (which claims
 * every team's due messages) never sends what other test files, sharing DATABASE_URL, keep
 * QUEUED on purpose (the demo conversation's QUEUED example, for one).
 */
async function throwawayDatabase(port: number): Promise<{ url: string; drop: () => Promise<void> }> {
  const base = new URL(process.env.DATABASE_URL!);
  const name = `${base.pathname.slice(1)}_app_${port}`.slice(0, 63);
  const { default: postgres } = await import("postgres");
  const admin = () => postgres(base.toString(), { max: 1, onnotice: () => {} });
  const sql = admin();
  try {
    await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await sql.unsafe(`CREATE DATABASE "${name}"`);
  } finally {
    await sql.end();
  }
  const url = new URL(base);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const sql = admin();
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await sql.end();
      }
    },
  };
}

/**
 * Starts `next start` as `npm start` does (NEXT_MANUAL_SIG_HANDLE=1) on its own PGlite folder,
 * or, when DATABASE_URL is set, on a throwaway database beside it, with the demo team seeded under a token of this run. Resolves once
 * the API answers (Next holds requests until instrumentation's start-up work is done).
 */
export async function startBuiltApp(
  appDir: string,
  env: Record<string, string> = {},
  { cluster = false }: { cluster?: boolean } = {},
): Promise<AppProcess> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "built-app-"));
  const token = `wam_${randomBytes(32).toString("base64url")}`;
  const pgliteDir = process.env.DATABASE_URL ? null : path.join(dataDir, "pglite");
  const database = process.env.DATABASE_URL ? await throwawayDatabase(port) : null;
  // `cluster`: `npm run start:cluster` serving the same build (it needs DATABASE_URL).
  const args = cluster
    ? [path.join(ROOT, "scripts", "cluster.mjs"), "-p", String(port), "-H", "127.0.0.1"]
    : [path.join(ROOT, "node_modules", "next", "dist", "bin", "next"), "start", appDir, "-p", String(port), "-H", "127.0.0.1"];
  const child = spawn(process.execPath, args, {
    cwd: appDir,
    env: {
      ...(cluster ? { CLUSTER_APP_DIR: appDir } : {}),
      ...process.env,
      NODE_ENV: "production",
      NEXT_MANUAL_SIG_HANDLE: "1",
      NEXT_TELEMETRY_DISABLED: "1",
      APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY ?? "test-encryption-key",
      DATA_DIR: dataDir,
      ...(pgliteDir ? { PGLITE_DIR: pgliteDir } : {}),
      ...(database ? { DATABASE_URL: database.url } : {}),
      SEED_DEMO: "1",
      DEMO_API_TOKEN: token,
      RATE_LIMIT_PER_MINUTE: "0",
      AUTH_FAILURES_PER_ADDRESS: "0",
      APP_URL: `http://127.0.0.1:${port}`,
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  const keep = (chunk: Buffer) => {
    out = (out + chunk.toString()).slice(-50_000);
  };
  child.stdout!.on("data", keep);
  child.stderr!.on("data", keep);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once("exit", (code, signal) => resolve({ code, signal })),
  );
  const cleanup = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    fs.rmSync(dataDir, { recursive: true, force: true });
    await database?.drop().catch(() => {});
  };
  const url = `http://127.0.0.1:${port}`;
  // A cold start on a busy two-core machine (migrations, the demo seed) takes tens of seconds.
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      await cleanup();
      throw new Error(`next start exited (${child.exitCode ?? child.signalCode}) before it answered:\n${out}`);
    }
    try {
      const res = await fetch(url + "/api/v1/wa_numbers", {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      await res.arrayBuffer();
      if (res.ok) break;
    } catch {}
    if (Date.now() > deadline) {
      await cleanup();
      throw new Error(`next start did not answer within 180 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, url, token, output: () => out, exited, pgliteDir, databaseUrl: database?.url ?? null, cleanup };
}
