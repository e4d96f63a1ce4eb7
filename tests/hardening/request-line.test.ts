import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { prepareBuiltApp, startBuiltApp, type AppProcess } from "../helpers/built-app";
import { rawRequest, type RawAnswer } from "../helpers/raw-http";
import { MALFORMED_URL } from "@/lib/http/malformed-path";
import { METHOD_NOT_ALLOWED } from "@/lib/http/method-not-allowed";
import { requestLineRefusal, ROUTED_METHODS } from "@/lib/http/request-line-guard";

/**
 * Request lines Next must never see (lib/http/request-line-guard.ts), over a raw socket: a target
 * in proxy form got Next's 308 to the host it named (`GET http://evil.example/api/v1/health` →
 * `Location: http://evil.example/api/v1/health`), `*` a 500, TRACE a 500 with a stack trace in
 * the log, PROPFIND an empty 400 or a page, TRACK Node's bare 400, CONNECT a dropped connection.
 * Now: 400 for a target that is not a path, 405 with `Allow` for a method Next does not route,
 * both in the API's JSON body; checked on the tests' server and on the built app under `next start`.
 */
const H = "Host: 127.0.0.1";

const PROXY_FORM = [
  `GET http://evil.example/api/v1/health HTTP/1.1\r\n${H}`,
  `GET https://evil.example/api/v1/contacts HTTP/1.1\r\n${H}`,
  `GET http://evil.example HTTP/1.1\r\n${H}`,
  `POST http://evil.example/api/v1/webhooks/whatsapp HTTP/1.1\r\n${H}\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
  `GET http://127.0.0.1/inbox HTTP/1.1\r\n${H}`,
  `GET * HTTP/1.1\r\n${H}`,
  `OPTIONS * HTTP/1.1\r\n${H}`,
];

const UNROUTED = [
  `TRACE /api/v1/health HTTP/1.1\r\n${H}`,
  `TRACE / HTTP/1.1\r\n${H}`,
  `TRACE /inbox HTTP/1.1\r\n${H}\r\nMax-Forwards: 0`,
  `TRACK /api/v1/health HTTP/1.1\r\n${H}`,
  `TRACK / HTTP/1.1\r\n${H}`,
  `PROPFIND /api/v1/contacts HTTP/1.1\r\n${H}`,
  `PROPFIND / HTTP/1.1\r\n${H}`,
  `QUERY /api/v1/health HTTP/1.1\r\n${H}`,
  `PURGE /api/v1/webhooks/whatsapp HTTP/1.1\r\n${H}`,
  `FOO /api/v1/contacts HTTP/1.1\r\n${H}`,
  `CONNECT evil.example:443 HTTP/1.1\r\n${H}`,
];

function expectRefused(res: RawAnswer, status: number, message: string, line: string) {
  expect(res.status, line).toBe(status);
  expect(JSON.parse(res.body), line).toEqual({ message });
  expect(res.headers["content-type"], line).toBe("application/json; charset=utf-8");
  expect(res.headers["content-security-policy"], line).toBe("default-src 'none'; frame-ancestors 'none'");
  expect(res.headers["x-content-type-options"], line).toBe("nosniff");
  expect(res.headers.location, line).toBeUndefined();
  expect(res.headers.connection, line).toBe("close");
  if (status === 405) expect(res.headers.allow, line).toBe(ROUTED_METHODS.join(", "));
}

/** The cases every server must answer the same way. */
function requestLineCases(url: () => string) {
  it.each(PROXY_FORM.map((h) => [h.split("\r\n")[0], h]))("%s → 400, never a redirect", async (line, head) => {
    expectRefused(await rawRequest(url(), head), 400, MALFORMED_URL, line);
  });

  it.each(UNROUTED.map((h) => [h.split("\r\n")[0], h]))("%s → 405 with Allow", async (line, head) => {
    expectRefused(await rawRequest(url(), head), 405, METHOD_NOT_ALLOWED, line);
  });

  it("origin-form requests still reach their routes", async () => {
    const health = await rawRequest(url(), `GET /api/v1/health HTTP/1.1\r\n${H}`);
    expect(health.status).toBe(200);
    const options = await rawRequest(url(), `OPTIONS /api/v1/nope HTTP/1.1\r\n${H}`);
    expect(options.status).toBe(404);
    // A path that starts with two slashes is a path (Next's 308 to `/evil.example/…`, same origin).
    const doubled = await rawRequest(url(), `GET //evil.example/api/v1/health HTTP/1.1\r\n${H}`);
    expect(doubled.status).toBeLessThan(500);
    expect(doubled.headers.location ?? "").not.toMatch(/^([a-z]+:)?\/\//i);
  });

  it("the parser's other errors keep Node's own answers (the guard's 'clientError' stands in for its default)", async () => {
    const huge = await rawRequest(url(), `GET /api/v1/health HTTP/1.1\r\n${H}\r\nX-Big: ${"a".repeat(20_000)}`);
    expect(huge.status).toBe(431);
    const garbled = await rawRequest(url(), `GET /api/v1/health HTTP/9.Z\r\n${H}`);
    expect(garbled.status).toBe(400);
    expect(garbled.body).toBe("");
  });

  it("/api/v1 and /api/v1/ answer the API's JSON 404", async () => {
    for (const path of ["/api/v1", "/api/v1/"]) {
      const res = await fetch(url() + path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get("content-type"), path).toMatch(/^application\/json/);
      expect(await res.json(), path).toEqual({ message: "Ruta no encontrada." });
    }
  });
}

describe("requestLineRefusal", () => {
  it("takes origin-form targets and Next's seven methods, nothing else", () => {
    for (const m of ROUTED_METHODS) expect(requestLineRefusal(m, "/x")).toBeNull();
    expect(requestLineRefusal("GET", "http://a/x")?.status).toBe(400);
    expect(requestLineRefusal("GET", "*")?.status).toBe(400);
    expect(requestLineRefusal("GET", "")?.status).toBe(400);
    expect(requestLineRefusal("TRACE", "/x")?.status).toBe(405);
    expect(requestLineRefusal("get", "/x")?.status).toBe(405);
    // The target first: a proxy-form TRACE is a bad target before it is a bad method.
    expect(requestLineRefusal("TRACE", "http://a/x")?.status).toBe(400);
    expect(requestLineRefusal("GET", "/api/v1/")?.status).toBe(404);
    expect(requestLineRefusal("GET", "/api/v1/contacts/")).toBeNull();
  });
});

describe("on the tests' server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  requestLineCases(() => server.url);
});

describe("under next start", () => {
  let app: AppProcess;
  beforeAll(async () => {
    app = await startBuiltApp(prepareBuiltApp("request-line"));
    // The guard learns the server from its first request: one ordinary request first, as any
    // real server gets before an attacker's.
    expect((await fetch(`${app.url}/api/v1/health`)).status).toBe(200);
  }, 900_000);
  afterAll(() => app?.cleanup());

  requestLineCases(() => app.url);

  it("/api/v1/ answers the JSON 404 itself, never Next's trailing-slash redirect", async () => {
    for (const path of ["/api/v1/", "/api/v1/?x=1"]) {
      const res = await fetch(`${app.url}${path}`, { redirect: "manual" });
      expect(res.status, path).toBe(404);
      expect(res.headers.get("location"), path).toBeNull();
      expect(await res.json(), path).toEqual({ message: "Ruta no encontrada." });
    }
  });

  it("the webhook fast lane still takes Meta's posts, and nothing left a stack trace in the log", async () => {
    const res = await fetch(`${app.url}/api/v1/webhooks/whatsapp`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    });
    expect(res.status).toBe(401);
    expect(res.headers.get("vary")).toBeNull(); // answered by the fast lane, not Next
    expect(app.output()).not.toMatch(/TypeError|Error:|\n\s+at /);
  });
});
