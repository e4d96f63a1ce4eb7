import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { createWorld, teamDigest, type World } from "../helpers/hardening-world";
import { ENDPOINTS } from "../helpers/hardening-routes";
import { BODY_TOO_DEEP, MAX_BODY_DEPTH } from "@/lib/http/json-limits";
import { UNSTORABLE_TEXT } from "@/lib/http/parse";
import { canonicalJson } from "@/lib/idempotency/service";

/**
 * A JSON body nested about 2,000 levels deep, sent with an Idempotency-Key, answered 500
 * (canonicalJson ran out of stack); without the key the same body got a 422. Every JSON body now
 * goes through one iterative check before any schema, hash or insert: deeper than MAX_BODY_DEPTH
 * levels is a 400, with or without the key, on every endpoint that takes JSON, and nothing is written.
 */
let server: TestServer;
let w: World;
beforeAll(async () => {
  server = await startServer();
  w = await createWorld();
});
afterAll(() => server.close());

/** `levels` of arrays around a 1, as text (JSON.stringify itself overflows far enough down). */
const deepArray = (levels: number) => `${"[".repeat(levels)}1${"]".repeat(levels)}`;
/** A valid body with `extra` holding `levels` more levels: the body itself is level 1. */
const withDeepExtra = (valid: Record<string, unknown>, levels: number) =>
  JSON.stringify({ ...valid, extra: "__DEEP__" }).replace('"__DEEP__"', deepArray(levels));

const jsonEndpoints = ENDPOINTS.filter((e) => e.input === "json" && e.valid);

async function post(method: string, path: string, text: string, headers: Record<string, string> = {}) {
  const res = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${w.token}`, "content-type": "application/json", ...headers },
    body: text,
  });
  return { status: res.status, body: await res.json().catch(() => null) };
}

describe("JSON bodies deeper than MAX_BODY_DEPTH", () => {
  it("the JSON endpoints are all here", () => {
    expect(jsonEndpoints.map((e) => e.name)).toEqual(expect.arrayContaining(["send", "send bulk", "broadcast create", "reply"]));
  });

  it.each(jsonEndpoints.map((e) => [e.name, e] as const))("%s: 400 with or without an Idempotency-Key, nothing written", async (_n, e) => {
    const before = await teamDigest(w.team.id);
    // Up to the deepest that fits the endpoint's size limit (two bytes a level).
    const fits = Math.floor(((e.maxBytes ?? 256 * 1024) - 4096) / 2);
    for (const levels of [MAX_BODY_DEPTH, 2_000, 2_500, 10_000, fits]) {
      for (const key of [null, `deep-${e.name}-${levels}`]) {
        const res = await post(e.method, e.path(w), withDeepExtra(e.valid!(w), levels), key ? { "idempotency-key": key } : {});
        expect(res, `${levels} levels, key ${key}`).toEqual({ status: 400, body: { message: BODY_TOO_DEEP } });
      }
    }
    // A deep object refused the same way.
    const objects = JSON.stringify({ ...e.valid!(w), extra: "__DEEP__" }).replace(
      '"__DEEP__"',
      `${'{"a":'.repeat(3_000)}1${"}".repeat(3_000)}`,
    );
    expect(await post(e.method, e.path(w), objects, { "idempotency-key": `obj-${e.name}` })).toEqual({
      status: 400,
      body: { message: BODY_TOO_DEEP },
    });
    expect(await teamDigest(w.team.id)).toBe(before);
  });

  it("the deepest accepted body goes on to its endpoint, and its hash is the same with the key on a retry", async () => {
    const send = ENDPOINTS.find((e) => e.name === "send")!;
    // The body is level 1: MAX_BODY_DEPTH - 1 more levels inside it is the deepest accepted.
    const text = withDeepExtra({ ...send.valid!(w), destination: w.contact.customerNumber }, MAX_BODY_DEPTH - 1);
    const first = await post("POST", send.path(w), text, { "idempotency-key": "deepest-accepted" });
    expect(first.status).toBe(200);
    const again = await post("POST", send.path(w), text, { "idempotency-key": "deepest-accepted" });
    expect(again).toEqual(first);
  });

  it("NUL and lone surrogates are still refused, in a key or a value, at any accepted depth", async () => {
    const send = ENDPOINTS.find((e) => e.name === "send")!;
    for (const bad of ['{"a\\u0000":1}', '["x\\ud800"]', '{"x":["\\u0000"]}']) {
      const text = JSON.stringify({ ...send.valid!(w), extra: "__BAD__" }).replace('"__BAD__"', `${"[".repeat(40)}${bad}${"]".repeat(40)}`);
      expect(await post("POST", send.path(w), text)).toEqual({ status: 400, body: { message: UNSTORABLE_TEXT } });
    }
  });

  it("canonicalJson handles every depth the door lets through", () => {
    const value = JSON.parse(deepArray(MAX_BODY_DEPTH - 1));
    expect(canonicalJson({ b: value, a: 1 })).toBe(`{"a":1,"b":${deepArray(MAX_BODY_DEPTH - 1)}}`);
  });
});
