import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { endlessUpload } from "../helpers/endless-upload";
import { createTeam } from "../helpers/factories";
import { applyTimeouts, limitHttpConnections } from "@/lib/http/connection-limits";
import { FAST_LANE_PATH, installWebhookFastLane } from "@/lib/meta-webhooks/fast-lane";
import { MAX_WEBHOOK_BYTES } from "@/lib/meta-webhooks/whatsapp-service";

/**
 * An answer given before the body has all arrived ends the connection (lib/http/connection-limits.ts):
 * an endless chunked body sent by anyone costs the server one answer, not minutes of reading.
 * Here on the real route handlers (tests/helpers/server.ts, as Next serves them) and on the
 * webhook fast lane; tests/hardening/unread-bodies-next.test.ts does the same under `next start`.
 * And the timeouts: headers and whole requests that never complete are cut after their limit.
 */
const LIMITS = { headersTimeoutS: 10, requestTimeoutS: 60, keepAliveTimeoutS: 5 };
let route: TestServer;
let lane: http.Server;
let laneUrl: string;
/** Answers 401 without reading the body, as Next does for a route that refuses before reading. */
let bare: http.Server;
let bareUrl: string;

beforeAll(async () => {
  limitHttpConnections(() => LIMITS);
  route = await startServer();
  lane = http.createServer((_req, res) => res.end("next"));
  installWebhookFastLane(lane);
  await new Promise<void>((resolve) => lane.listen(0, "127.0.0.1", resolve));
  laneUrl = `http://127.0.0.1:${(lane.address() as AddressInfo).port}`;
  bare = http.createServer((_req, res) => {
    res.statusCode = 401;
    res.end('{"message":"Unauthenticated."}');
  });
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
  bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await route.close();
  for (const s of [lane, bare]) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

describe("an answer given before the body has arrived", () => {
  it("closes the connection within 1 s: unauthenticated API calls, the webhook's 413 on the route and the fast lane", async () => {
    const team = await createTeam();
    const cases: { url: () => string; path: string; headers: Record<string, string>; declaredLength?: number; status: number }[] = [
      // Node alone would read this body until its request timeout: the module is what closes it.
      { url: () => bareUrl, path: "/api/v1/message_templates/send", headers: {}, status: 401 },
      { url: () => route.url, path: "/api/v1/message_templates/send_bulk", headers: {}, status: 401 },
      { url: () => route.url, path: "/api/v1/message_templates/send", headers: { authorization: "Bearer wam_nope" }, status: 401 },
      // The webhook route reads up to its limit before it checks the signature.
      { url: () => route.url, path: "/api/v1/webhooks/whatsapp", headers: {}, status: 413 },
      { url: () => laneUrl, path: FAST_LANE_PATH, headers: {}, status: 413 },
      { url: () => laneUrl, path: FAST_LANE_PATH, headers: {}, declaredLength: 1024 * MAX_WEBHOOK_BYTES, status: 413 },
    ];
    // Four at once, as the attack did.
    for (const c of cases) {
      const runs = await Promise.all(
        Array.from({ length: 4 }, () => endlessUpload(c.url(), { path: c.path, headers: c.headers, declaredLength: c.declaredLength })),
      );
      for (const r of runs) {
        expect(r.status, `${c.path}: ${r.answer.slice(0, 300)}`).toBe(c.status);
        expect(r.answer.toLowerCase()).toContain("connection: close");
        expect(r.closedAfterAnswerMs, c.path).not.toBeNull();
        expect(r.closedAfterAnswerMs!, c.path).toBeLessThan(1000);
      }
    }
    // An authenticated call: its body is read up to the route's limit, then refused the same way.
    const r = await endlessUpload(route.url, {
      path: "/api/v1/message_templates/send",
      headers: { authorization: `Bearer ${team.token}` },
    });
    expect(r.status, r.answer.slice(0, 300)).toBeGreaterThanOrEqual(400);
    expect(r.status).toBeLessThan(500);
    expect(r.closedAfterAnswerMs!).toBeLessThan(1000);
  });

  it("keeps the connection when the body had arrived whole", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<net.Socket>();
    for (let i = 0; i < 3; i++) {
      const status = await new Promise<number>((resolve, reject) => {
        const req = http.request(laneUrl + FAST_LANE_PATH, { method: "POST", agent, headers: { "content-type": "application/json" } });
        req.on("socket", (s) => sockets.add(s));
        req.on("response", (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        });
        req.on("error", reject);
        req.end("{}");
      });
      expect(status).toBe(401);
    }
    agent.destroy();
    // The unsigned post's body was read before its 401: the three went over one connection.
    expect(sockets.size).toBe(1);
  });
});

describe("timeouts in seconds", () => {
  /** A connection that sends `bytes` and nothing more; resolves with what came back and when it closed. */
  function stall(url: string, bytes: string): Promise<{ answer: string; closedMs: number }> {
    const { hostname, port } = new URL(url);
    const started = Date.now();
    return new Promise((resolve) => {
      const socket = net.connect(Number(port), hostname, () => socket.write(bytes));
      let answer = "";
      socket.on("data", (d) => (answer += d.toString("latin1")));
      socket.on("error", () => {});
      socket.on("close", () => resolve({ answer, closedMs: Date.now() - started }));
    });
  }

  it("cuts headers that never end after HTTP_HEADERS_TIMEOUT_S, and a body that never ends after HTTP_REQUEST_TIMEOUT_S", async () => {
    const limits = { headersTimeoutS: 1, requestTimeoutS: 2, keepAliveTimeoutS: 5 };
    // A server that reads every body whole before it answers.
    const server = http.createServer((req, res) => req.resume().on("end", () => res.end("ok")));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    applyTimeouts(server, limits);
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const [headers, body] = await Promise.all([
        stall(url, "POST /api/v1/contacts HTTP/1.1\r\nhost: x\r\nx-slow: "),
        stall(url, "POST /api/v1/contacts HTTP/1.1\r\nhost: x\r\ncontent-length: 1000\r\n\r\n{"),
      ]);
      // Node answers 408 and closes; checked every second here (Node's own check: every 30 s).
      for (const [stalled, limitS] of [
        [headers, limits.headersTimeoutS],
        [body, limits.requestTimeoutS],
      ] as const) {
        expect(stalled.answer).toMatch(/^HTTP\/1\.1 408/);
        expect(stalled.closedMs).toBeGreaterThanOrEqual(limitS * 1000 - 50);
        expect(stalled.closedMs).toBeLessThan(limitS * 1000 + 2500);
      }
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it("sets the server's limits from the settings", () => {
    const server = http.createServer();
    applyTimeouts(server, { headersTimeoutS: 10, requestTimeoutS: 60, keepAliveTimeoutS: 5 });
    expect([server.headersTimeout, server.requestTimeout, server.keepAliveTimeout]).toEqual([10_000, 60_000, 5_000]);
  });
});
