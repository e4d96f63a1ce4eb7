import { spawn, type ChildProcess } from "node:child_process";
import postgres from "postgres";
import { afterAll, beforeAll } from "vitest";

/**
 * App processes for the cross-process events tests: each runs tests/events/event-server.ts (the
 * real route modules over node:http) on one shared database. Two processes need a server Postgres
 * (PGlite is one process): DATABASE_URL when the suite runs on one, else a throwaway database on
 * this machine's PostgreSQL (PG_SERVER_URL, default postgres://postgres@127.0.0.1:5432), dropped
 * afterwards. Call `appProcesses()` once at the top of a test file.
 */
export type AppSetup = { token: string; contactId: number; labelId: number; sessionCookies: string[] };
export type Ready = { port: number; setup: AppSetup | null };

export function appProcesses(prefix: string) {
  const server = process.env.PG_SERVER_URL ?? "postgres://postgres@127.0.0.1:5432";
  let databaseUrl = process.env.DATABASE_URL ?? "";
  let throwaway: string | undefined;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    if (databaseUrl) return;
    throwaway = `${prefix}_${process.pid}_${Date.now()}`;
    const admin = postgres(`${server}/postgres`, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE "${throwaway}"`);
    await admin.end();
    databaseUrl = `${server}/${throwaway}`;
  });

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
    if (!throwaway) return;
    const admin = postgres(`${server}/postgres`, { max: 1, onnotice: () => {} });
    await admin.unsafe(`DROP DATABASE IF EXISTS "${throwaway}" WITH (FORCE)`);
    await admin.end();
  });

  function startApp(extra: Record<string, string> = {}): Promise<Ready> {
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: databaseUrl,
      APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY ?? "test-encryption-key",
      SEED_DEMO: "0",
      RATE_LIMIT_PER_MINUTE: "0",
      ...extra,
    };
    delete env.PGLITE_DIR;
    const child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "tests/events/event-server.ts"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    children.push(child);
    return new Promise((resolve, reject) => {
      let out = "";
      let err = "";
      child.stderr!.on("data", (d) => (err += d));
      child.stdout!.on("data", (d) => {
        out += d;
        const line = out.split("\n").find((l) => l.startsWith("READY "));
        if (line) resolve(JSON.parse(line.slice(6)));
      });
      child.once("exit", (code) => reject(new Error(`event-server exited (${code}) before READY: ${err.slice(-2000)}`)));
    });
  }

  return { startApp, databaseUrl: () => databaseUrl };
}
