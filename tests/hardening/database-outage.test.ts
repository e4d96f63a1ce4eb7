import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTcpProxy, startThrowawayPostgres } from "../helpers/throwaway-postgres";
import { waitFor } from "../helpers/wait";
import { SERVICE_UNAVAILABLE } from "@/lib/http/respond";

/**
 * While the database is away the API answers 503 within a second (db/circuit.ts), not after each
 * request's own connect timeout: the API in a process of its own (crash-server.ts) on a
 * PostgreSQL of this test, reached through a TCP proxy standing for the pooler, which the test
 * kills (connections refused) and then cuts off (connections never answered, the slow case).
 */
let pg: Awaited<ReturnType<typeof startThrowawayPostgres>>;
let proxy: Awaited<ReturnType<typeof startTcpProxy>>;
let child: ChildProcess | undefined;

beforeAll(async () => {
  pg = await startThrowawayPostgres();
  const { port } = new URL(pg.url);
  proxy = await startTcpProxy({ host: "127.0.0.1", port: Number(port) });
}, 120_000);
afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await proxy?.close();
  pg?.stop();
});

type Ready = { port: number; setup: { token: string } };
/** The server's stderr so far (the circuit logs when it opens and closes). */
let log = "";

function startApi(databaseUrl: string): Promise<Ready> {
  child = spawn(process.execPath, ["--conditions=react-server", "--import", "tsx", "tests/hardening/crash-server.ts"], {
    env: {
      ...process.env,
      APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY ?? "test-encryption-key",
      SEED_DEMO: "0",
      RATE_LIMIT_PER_MINUTE: "0",
      DATABASE_URL: databaseUrl,
      CRASH_SETUP: "1",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const c = child;
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    c.stderr!.on("data", (d) => {
      err += d;
      log += d;
    });
    c.stdout!.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("READY "));
      if (line) resolve(JSON.parse(line.slice(6)));
    });
    c.once("exit", (code) => reject(new Error(`crash-server exited (${code}) before READY: ${err.slice(-2000)}`)));
  });
}

describe("the database away", { timeout: 180_000 }, () => {
  it("answers 503 with Retry-After within 1 s after the first failed connect, and serves again once the database is back", async () => {
    const ready = await startApi(`postgres://postgres@127.0.0.1:${proxy.port}/postgres`);
    const base = `http://127.0.0.1:${ready.port}`;
    /** An authenticated read (the token and the message are both looked up in the database). */
    const read = async () => {
      const began = Date.now();
      const res = await fetch(`${base}/api/v1/updates/${randomUUID()}`, {
        headers: { authorization: `Bearer ${ready.setup.token}` },
        signal: AbortSignal.timeout(30_000),
      });
      return { status: res.status, ms: Date.now() - began, retryAfter: res.headers.get("retry-after"), body: await res.json() };
    };
    expect((await read()).status).toBe(404);

    const opened = () => log.split("connecting to the database failed").length - 1;
    const closed = () => log.split("the database answers again").length - 1;
    for (const [round, outage] of (["refuse", "blackHole"] as const).entries()) {
      await proxy[outage]();
      // The first requests find out: their connections cut (503 at once), then a connect that
      // fails (refused at once; unanswered, after the driver's 10 s connect timeout), which
      // opens the circuit. Each is answered 503.
      const before: number[] = [];
      await waitFor(
        async () => {
          const r = await read();
          expect(r.status, outage).toBe(503);
          before.push(r.ms);
          return opened();
        },
        (n) => n === round + 1,
        60_000,
        0,
      );
      // From then on every request is answered at once.
      const after = await Promise.all(Array.from({ length: 8 }, read));
      const slowest = Math.max(...after.map((a) => a.ms));
      console.info(`[database-outage] ${outage}: until the circuit opened ${JSON.stringify(before)} ms; the next 8 within ${slowest} ms`);
      for (const a of after) {
        expect(a.status, outage).toBe(503);
        expect(a.body).toEqual({ message: SERVICE_UNAVAILABLE });
        expect(Number(a.retryAfter)).toBeGreaterThan(0);
        expect(a.ms, outage).toBeLessThan(1000);
      }
      // Back: the circuit's probe sees it and requests are served again.
      await proxy.restore();
      await waitFor(closed, (n) => n === round + 1, 30_000);
      expect((await read()).status).toBe(404);
    }
  });
});
