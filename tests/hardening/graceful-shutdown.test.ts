import http from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepareBuiltApp, startBuiltApp, type AppProcess } from "../helpers/built-app";
import { committedRows, sendLoopThenSigterm, within } from "../helpers/send-outcomes";

/**
 * Graceful shutdown of `next start` (docs/operations.md, "Shutdown"; lib/shutdown/): SIGTERM in the
 * middle of a send loop must cost no answer. Each of CLIENTS clients sends a template over its own
 * kept-alive connection, one request after another. Every request must end one of two ways: an
 * HTTP answer, or a refused connection (the client then knows its request never arrived). A reset
 * or a cut after the request was written is the failure this guards against: the client cannot
 * tell whether its send committed. Every committed send must have been acknowledged with its
 * update_id, and the process must exit 0 within SHUTDOWN_TIMEOUT_S.
 */
const CLIENTS = 30;
/** SIGTERM comes once this many sends were acknowledged: mid-load, with every client busy. */
const ACKS_BEFORE_SIGTERM = 90;
const SHUTDOWN_TIMEOUT_S = 25;

let appDir: string;
const apps: AppProcess[] = [];

beforeAll(() => {
  appDir = prepareBuiltApp("graceful-shutdown");
}, 900_000);
afterAll(async () => {
  for (const app of apps) await app.cleanup();
});

describe("SIGTERM to next start", () => {
  it("answers every request in flight, acknowledges every committed send and exits 0 within the deadline", async () => {
    const app = await startBuiltApp(appDir, { SHUTDOWN_TIMEOUT_S: String(SHUTDOWN_TIMEOUT_S) });
    apps.push(app);
    const { group, outcomes, killedAt, exit, exitMs } = await sendLoopThenSigterm(app, {
      clients: CLIENTS,
      acksBeforeSigterm: ACKS_BEFORE_SIGTERM,
      timeoutS: SHUTDOWN_TIMEOUT_S,
    });

    const broken = outcomes.filter((o) => o.kind === "broken");
    const answered = outcomes.filter((o) => o.kind === "answered");
    const drainLine = /\[shutdown\] no longer accepting[^\n]*/.exec(app.output())?.[0];
    console.log(
      `[graceful-shutdown] ${answered.length} answered (${answered.filter((o) => o.at >= killedAt).length} after SIGTERM), ` +
        `${outcomes.filter((o) => o.kind === "refused").length} refused, ${broken.length} broken; exit ${exit.code ?? exit.signal} ` +
        `after ${exitMs} ms; server: ${drainLine ?? "no drain line"}`,
    );
    expect(broken, app.output()).toEqual([]);
    expect(exit, app.output()).toEqual({ code: 0, signal: null });
    expect(exitMs).toBeLessThan(SHUTDOWN_TIMEOUT_S * 1000);
    expect(answered.every((o) => o.status === 200)).toBe(true);
    // The requests in flight at SIGTERM were answered, not dropped: every client had one.
    expect(answered.filter((o) => o.at >= killedAt).length).toBeGreaterThan(0);
    expect(app.output()).toMatch(/\[shutdown\] SIGTERM: draining/);

    const acknowledged = answered.map((o) => o.updateId);
    expect(acknowledged.every((id) => typeof id === "string")).toBe(true);
    const rows = await committedRows(app, group);
    // Committed = acknowledged, both ways: no send stored without its answer, none answered unstored.
    expect(rows.map((r) => r.update_id).sort()).toEqual([...acknowledged].sort());
    // The in-process worker sent or gave back every claim it held.
    expect(rows.filter((r) => r.leased)).toEqual([]);
  }, 600_000);

  it("ends an open event stream with a retry hint before it closes", async () => {
    const app = await startBuiltApp(appDir, { SHUTDOWN_TIMEOUT_S: String(SHUTDOWN_TIMEOUT_S) });
    apps.push(app);
    let text = "";
    let connected!: () => void;
    const opened = new Promise<void>((r) => (connected = r));
    const ended = new Promise<{ complete: boolean; error?: string }>((resolve) => {
      const req = http.get(
        `${app.url}/api/v1/events`,
        { headers: { authorization: `Bearer ${app.token}`, accept: "text/event-stream" } },
        (res) => {
          res.setEncoding("utf8");
          res.on("data", (chunk: string) => {
            text += chunk;
            if (text.includes(": connected")) connected();
          });
          res.on("end", () => resolve({ complete: res.complete }));
          res.on("error", (err) => resolve({ complete: false, error: err.message }));
        },
      );
      req.on("error", (err) => resolve({ complete: false, error: err.message }));
    });
    await within(60_000, "the stream to open", opened);
    const beforeSigterm = text.length;

    app.child.kill("SIGTERM");
    const end = await within((SHUTDOWN_TIMEOUT_S + 30) * 1000, "the stream to end", ended);
    const exit = await within((SHUTDOWN_TIMEOUT_S + 30) * 1000, "exit after SIGTERM", app.exited);

    // Ended cleanly (the chunked body's last chunk arrived), after a `retry:` short enough to
    // send the browser's EventSource to another process within about a second.
    expect(end, app.output()).toEqual({ complete: true });
    expect(text.slice(beforeSigterm)).toMatch(/^retry: 1000\n/m);
    expect(exit, app.output()).toEqual({ code: 0, signal: null });
  }, 300_000);
});
