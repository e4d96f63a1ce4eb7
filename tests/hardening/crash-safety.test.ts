import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeGraph, type FakeGraph } from "../fakes/graph";

/**
 * Crash safety: the API runs in a process of its own (crash-server.ts) on a PGlite folder (or on
 * DATABASE_URL when set), takes a burst of sends and is killed with SIGKILL in the middle of it.
 * After a restart every send that was answered 200 must be there, QUEUED or beyond, and the
 * delivery worker must hand each one to the (fake) Graph API exactly once.
 */
const STATUSES_AFTER_ACCEPT = ["QUEUED", "SENDED", "SENT", "DELIVERED", "READED"];
let graph: FakeGraph;
let dir: string;
const children: ChildProcess[] = [];

beforeAll(async () => {
  graph = await startFakeGraph();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "crash-safety-"));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await graph.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

type Ready = { port: number; setup: { teamId: number; token: string; number: string; phoneNumberId: string; template: string } | null };

function startApi(extra: Record<string, string>): Promise<{ child: ChildProcess; ready: Ready }> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    APP_ENCRYPTION_KEY: process.env.APP_ENCRYPTION_KEY ?? "test-encryption-key",
    SEED_DEMO: "0",
    RATE_LIMIT_PER_MINUTE: "0",
    GRAPH_API_BASE_URL: graph.url,
    GRAPH_API_VERSION: "v21.0",
    // The fake answers from this (busy) test process: a timeout here would be a resend by design
    // (at-least-once after a timeout), not the crash behaviour this test is about.
    GRAPH_TIMEOUT_MS: "20000",
    ...extra,
  };
  if (!process.env.DATABASE_URL) env.PGLITE_DIR = path.join(dir, "pglite");
  // node itself (not the tsx binary, which would run a second process that SIGKILL cannot reach).
  const child = spawn(process.execPath, ["--import", "tsx", "tests/hardening/crash-server.ts"], { env, stdio: ["ignore", "pipe", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    // The worker's own warnings (a lost claim, a retried send) explain a failure here.
    child.stderr!.on("data", (d) => {
      err += d;
      process.stderr.write(d);
    });
    child.stdout!.on("data", (d) => {
      out += d;
      const line = out.split("\n").find((l) => l.startsWith("READY "));
      if (line) resolve({ child, ready: JSON.parse(line.slice(6)) });
    });
    child.once("exit", (code) => reject(new Error(`crash-server exited (${code}) before READY: ${err.slice(-2000)}`)));
  });
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once("exit", () => resolve())));

const marker = (i: number) => `crash-${i}-x`;

// Two process start-ups (tsx, PGlite, migrations) dominate; a loaded machine needs the margin.
describe("crash safety", { timeout: 240_000 }, () => {
  it("every send answered 200 before a SIGKILL survives the restart and is delivered exactly once", async () => {
    const first = await startApi({ CRASH_SETUP: "1" });
    const s = first.ready.setup!;
    const base = `http://127.0.0.1:${first.ready.port}`;
    const accepted = new Map<number, string>();
    let failed = 0;
    let next = 0;
    const TOTAL = 200;
    const KILL_AFTER = 60;

    async function lane() {
      while (next < TOTAL) {
        const i = next++;
        try {
          const res = await fetch(`${base}/api/v1/message_templates/send`, {
            method: "POST",
            headers: { authorization: `Bearer ${s.token}`, "content-type": "application/json" },
            body: JSON.stringify({
              wa_number: s.number,
              destination: `5730${String(i).padStart(8, "0")}`,
              template_name: s.template,
              header_param: { key: "1", value: "Ana" },
              body_params: [
                { key: "1", value: marker(i) },
                { key: "2", value: "lunes" },
              ],
            }),
          });
          const body = await res.json();
          if (res.status === 200) {
            accepted.set(i, body.data.update_id);
            if (accepted.size === KILL_AFTER) first.child.kill("SIGKILL");
          } else failed++;
        } catch {
          failed++;
        }
      }
    }
    await Promise.all(Array.from({ length: 12 }, lane));
    await exited(first.child);
    expect(first.child.signalCode).toBe("SIGKILL");
    expect(accepted.size).toBeGreaterThanOrEqual(KILL_AFTER);
    // The kill really landed mid-burst: later requests found no server.
    expect(failed).toBeGreaterThan(0);

    console.info(`[crash-safety] ${accepted.size} sends answered 200 before SIGKILL, ${failed} cut off`);
    const second = await startApi({ CRASH_WORKER: "1", CRASH_TEAM_ID: String(s.teamId) });
    const base2 = `http://127.0.0.1:${second.ready.port}`;
    const statusOf = async (updateId: string) => {
      const res = await fetch(`${base2}/api/v1/updates/${updateId}`, { headers: { authorization: `Bearer ${s.token}` } });
      return { http: res.status, status: res.status === 200 ? (await res.json()).data.status : null };
    };
    const found = await Promise.all([...accepted.values()].map(async (updateId) => ({ updateId, ...(await statusOf(updateId)) })));
    for (const st of found) {
      expect(st.http, st.updateId).toBe(200);
      expect(STATUSES_AFTER_ACCEPT).toContain(st.status);
    }

    // Delivery: every accepted send reaches the Graph API; none twice (nor any other send of the burst).
    const counts = () => {
      const seen = new Map<number, number>();
      for (const r of graph.sends(s.phoneNumberId)) {
        for (const m of JSON.stringify(r.body).matchAll(/crash-(\d+)-x/g)) seen.set(Number(m[1]), (seen.get(Number(m[1])) ?? 0) + 1);
      }
      return seen;
    };
    const deadline = Date.now() + 60_000;
    while ([...accepted.keys()].some((i) => !counts().has(i)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1000));
    const seen = counts();
    const detail = async (i: number) => {
      const id = accepted.get(i);
      const res = id ? await fetch(`${base2}/api/v1/updates/${id}`, { headers: { authorization: `Bearer ${s.token}` } }) : null;
      return `send ${i}: ${res ? (await res.text()).slice(0, 3000) : "not accepted"}`;
    };
    for (const i of accepted.keys()) if (seen.get(i) !== 1) expect(seen.get(i), await detail(i)).toBe(1);
    for (const [i, n] of seen) expect(n, `send ${i} delivered ${n} times`).toBe(1);
    // Committed but never answered (the kill came between commit and response): delivered too, once.
    console.info(`[crash-safety] delivered ${seen.size}: ${seen.size - accepted.size} of them committed but cut off before their answer`);
    const after = await Promise.all([...accepted.values()].map(statusOf));
    for (const st of after) expect(st.status).not.toBe("QUEUED");

    second.child.kill("SIGTERM");
    await exited(second.child);
  });
});
