import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import postgres from "postgres";
import { startServer, type TestServer } from "../helpers/server";
import { createTeam } from "../helpers/factories";
import { NextRequest } from "next/server";
import { toErrorResponse, SERVICE_UNAVAILABLE } from "@/lib/http/respond";
import { proxy } from "@/proxy";

/**
 * Unknown API paths answer the API's JSON 404 with its headers, and a
 * lost database answers 503 with Retry-After instead of 500.
 */
let server: TestServer;
let team: Awaited<ReturnType<typeof createTeam>>;
beforeAll(async () => {
  server = await startServer();
  team = await createTeam();
});
afterAll(() => server.close());

describe("unknown /api/v1 paths", () => {
  const cases: [string, string][] = [
    ["GET", "/api/v1/nope"],
    ["GET", "/api/v1/contacts/1/labels/extra"],
    ["POST", "/api/v1/a/b/c/d"],
    ["PUT", "/api/v1/messages/whatsapp"],
    ["PATCH", "/api/v1/updates"],
    ["DELETE", "/api/v1/x%20y"],
    ["OPTIONS", "/api/v1/nope"],
  ];
  it.each(cases)("%s %s answers the JSON 404 with CSP and Referrer-Policy", async (method, path) => {
    const auths: Record<string, string>[] = [{}, { authorization: `Bearer ${team.token}` }];
    for (const auth of auths) {
      const res = await fetch(server.url + path, { method, headers: auth });
      expect(res.status).toBe(404);
      expect(res.headers.get("content-type")).toMatch(/^application\/json/);
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
      expect(await res.json()).toEqual({ message: "Ruta no encontrada." });
    }
  });

  it("a known path with a method it does not serve answers the JSON 405 with Allow", async () => {
    for (const [method, path, allow] of [
      ["DELETE", "/api/v1/contacts", "GET, HEAD"],
      ["GET", "/api/v1/message_templates/send", "POST"],
      ["POST", "/api/v1/contacts/labels/1", "PATCH, DELETE"],
    ]) {
      const res = await fetch(server.url + path, { method, headers: { authorization: `Bearer ${team.token}` } });
      expect(res.status, path).toBe(405);
      expect(res.headers.get("allow"), path).toBe(allow);
      expect(res.headers.get("content-security-policy"), path).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(await res.json(), path).toEqual({ message: "Método no permitido en esta ruta." });
    }
  });

  it("known routes still answer as before, with the same API headers", async () => {
    const res = await fetch(`${server.url}/api/v1/contacts`, { headers: { authorization: `Bearer ${team.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(res.headers.get("referrer-policy")).toBe("same-origin");
  });
});

describe("a lost database answers 503 with Retry-After", () => {
  const logged: string[] = [];
  beforeAll(() => {
    vi.spyOn(console, "error").mockImplementation((line: unknown) => void logged.push(String(line)));
  });
  afterEach(() => void (logged.length = 0));
  afterAll(() => vi.restoreAllMocks());

  async function unavailable(err: unknown) {
    const res = toErrorResponse(err);
    // Logged with its status and request id, as a 500 is (never request data).
    expect(logged.at(-1)).toMatch(new RegExp(`^\\[api\\] ${res.status} request_id=${res.headers.get("x-request-id")}`));
    return { status: res.status, retryAfter: res.headers.get("retry-after"), body: await res.json() };
  }

  it("maps what postgres.js throws when the server is unreachable (a real refused connection)", async () => {
    // A port nothing listens on: the driver's own error, as during an outage.
    const sql = postgres("postgres://postgres@127.0.0.1:1/none", { max: 1, connect_timeout: 2, onnotice: () => {} });
    const err = await sql`select 1`.then(
      () => undefined,
      (e: unknown) => e,
    );
    await sql.end({ timeout: 1 });
    expect(err).toBeDefined();
    const res = await unavailable(err);
    expect(res.status).toBe(503);
    expect(res.retryAfter).toBe("5");
    expect(res.body.message).toBe(SERVICE_UNAVAILABLE);
  });

  it.each([
    ["ECONNRESET", Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" })],
    ["CONNECTION_CLOSED", Object.assign(new Error("write CONNECTION_CLOSED"), { code: "CONNECTION_CLOSED" })],
    [
      "57P01 wrapped by drizzle",
      Object.assign(new Error("Failed query: select 1"), { cause: Object.assign(new Error("terminating"), { code: "57P01" }) }),
    ],
    ["08006", Object.assign(new Error("connection failure"), { code: "08006" })],
    [
      "AggregateError of refused connects",
      Object.assign(new AggregateError([Object.assign(new Error("x"), { code: "ECONNREFUSED" })]), { code: undefined }),
    ],
  ])("%s → 503", async (_name, err) => {
    const res = await unavailable(err);
    expect(res.status).toBe(503);
    expect(res.retryAfter).toBe("5");
    expect(typeof res.body.message).toBe("string");
  });

  it("other errors stay 500 (a unique violation is not an outage)", async () => {
    const res = await unavailable(Object.assign(new Error("dup"), { code: "23505" }));
    expect(res.status).toBe(500);
    expect(res.retryAfter).toBeNull();
  });
});

describe("malformed page paths (proxy.ts, before Next decodes them)", () => {
  it.each(["/broadcasts/%zz", "/conversations/%", "/%E0%A4%A", "/labels/%C3/x"])(
    "%s answers the 400 page with the security headers",
    async (path) => {
      const res = proxy(new NextRequest(`http://localhost:3000${path}`));
      expect(res.status).toBe(400);
      expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8");
      expect(res.headers.get("content-security-policy")).toMatch(/frame-ancestors 'none'/);
      expect(res.headers.get("content-security-policy")).toMatch(/object-src 'none'/);
      expect(res.headers.get("referrer-policy")).toBe("same-origin");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(await res.text()).toContain("La URL de la solicitud no es válida.");
    },
  );

  it("a well-formed page path goes on to Next, with the page policy", () => {
    const res = proxy(new NextRequest("http://localhost:3000/broadcasts/%41", { headers: { cookie: "wa_session=x" } }));
    expect(res.headers.get("x-middleware-next")).toBe("1");
    expect(res.headers.get("content-security-policy")).toMatch(/nonce-/);
  });
});
