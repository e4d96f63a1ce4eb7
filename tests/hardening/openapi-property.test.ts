import http from "node:http";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { createWorld, type World } from "../helpers/hardening-world";
import { ENDPOINTS, ruledBodyProblem } from "../helpers/hardening-routes";
import { createCloudNumber, sign } from "../helpers/delivery-factories";
import { getOpenApiDocument } from "@/lib/openapi/document";
import { rawRequest } from "../helpers/raw-http";
import { createToken } from "@/lib/auth/tokens";

/**
 * A property test driven by the OpenAPI document. For every documented operation
 * it generates requests from the operation's own description (its path and query parameters and
 * its request body schema) with malformed path and query values, wrong JSON types, huge integers,
 * NUL and lone surrogates, dates far outside the supported calendar (year 9999, year 0) and deep
 * nesting with and without an Idempotency-Key, and asserts: never a 5xx, every error is the API's
 * JSON body `{"message": string, "errors"?: {field: [string]}}` (ruling 1, ruledBodyProblem), and
 * the process's heap (the tests' server runs in it) stays within HEAP_GROWTH_BOUND of where it
 * started. Every documented path also gets every HTTP method Node parses and two it does not
 * (TRACE, TRACK, CONNECT, PROPFIND…), over a raw socket: the same two promises.
 * OPENAPI_FUZZ_RUNS sets the requests per operation (default 24: the whole file stays well under
 * a minute on two cores).
 */
const RUNS = Number(process.env.OPENAPI_FUZZ_RUNS || 24);
/**
 * How far the heap may grow over the whole file. A summary for 9999-12-31 once took 1.2 GB in 20 s
 * before the process died; the fuzz's own garbage stays well under this between collections.
 */
const HEAP_GROWTH_BOUND = 384 * 1024 * 1024;

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: unknown[];
  const?: unknown;
};
type Parameter = { in: "path" | "query" | "header" | "cookie"; name: string; schema?: Schema };
type Operation = { parameters?: Parameter[]; requestBody?: { content: Record<string, { schema?: Schema }> }; security?: unknown[] };
type Doc = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };

const doc = getOpenApiDocument() as unknown as Doc;
const METHODS = ["get", "post", "put", "patch", "delete"] as const;
const operations = Object.entries(doc.paths).flatMap(([path, ops]) =>
  METHODS.filter((m) => ops[m]).map((m) => ({ name: `${m.toUpperCase()} ${path}`, method: m.toUpperCase(), path, op: ops[m]! })),
);

function resolve(s: Schema | undefined, depth = 0): Schema {
  if (!s) return {};
  if (s.$ref && depth < 10) return resolve(doc.components?.schemas?.[s.$ref.split("/").pop()!], depth + 1);
  if (s.allOf?.length)
    return s.allOf.reduce<Schema>((acc, x) => {
      const r = resolve(x, depth + 1);
      return { ...acc, ...r, properties: { ...acc.properties, ...r.properties } };
    }, {});
  return s;
}

// ---- Values that have broken parsers, databases and path checks. ----

const HUGE_INTS = [2 ** 31, -(2 ** 31) - 1, 2 ** 53, 2 ** 63, 1e308, -1, 0, 1.5, Number.MAX_SAFE_INTEGER + 2];
const HOSTILE_TEXT = ["", " ", "\u0000", "a\u0000b", "\uD800", "x\uDC00y", "\uDBFF\u0000", "\u202E", "null", "NaN", "x".repeat(3000)];
/** Raw (already percent-encoded) path and query values: NUL, lone surrogates (CESU-8), huge numbers, traversal. */
const RAW_SEGMENTS = [
  "0",
  "-1",
  "2147483648",
  "99999999999999999999",
  "1e3",
  "1.5",
  "%201",
  "%00",
  "a%00b",
  "%ED%A0%80",
  "%ED%B0%80x",
  "%EF%BF%BF",
  "%F0%9F%98%80",
  "..",
  "%2e%2e",
  "%2F",
  "%5C",
  "null",
  "undefined",
  "__proto__",
  "x".repeat(400),
];

/** Dates at and past the supported calendar's ends (lib/http/supported-dates.ts), in every form a date parameter takes. */
const EXTREME_DATES = [
  "9999-12-31",
  "0000-01-01",
  "10000-01-01",
  "1999-12-31",
  "2101-01-01",
  "2000-01-01",
  "2100-12-31",
  "9999-12-31 23:59:59",
  "0000-01-01 00:00:00",
  "+275760-09-13",
  "-000001-01-01",
  "9999-12-31T23:59:59Z",
  "0000-01-01T00:00:00Z",
  "2100-12-31T23:59:59-12:00",
];
/** Query parameters and body fields that take a date. */
const isDateName = (name: string) => /^(from|to|from_date|to_date)$|_at$/.test(name);

/** Percent-encodes a string; a lone surrogate becomes its CESU-8 bytes (what a careless client sends). */
function enc(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const pair = c >= 0xd800 && c <= 0xdbff && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00;
    if (pair) {
      out += encodeURIComponent(s.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join("");
    } else out += encodeURIComponent(s[i]);
  }
  return out;
}

const hostileString = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...HOSTILE_TEXT) },
  { weight: 2, arbitrary: fc.string({ maxLength: 30 }) },
  { weight: 1, arbitrary: fc.string({ unit: "binary", maxLength: 30 }) },
);
/** A raw query or path value: hostile text percent-encoded, or one of the raw spellings above. */
const rawValue = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom(...RAW_SEGMENTS) },
  { weight: 2, arbitrary: hostileString.map(enc) },
  { weight: 1, arbitrary: fc.constantFrom(...HUGE_INTS).map((n) => enc(String(n))) },
);

/** `levels` of nesting as JSON text (built as text: JSON.stringify itself overflows far enough down). */
const deepText = (levels: number, kind: "array" | "object") =>
  kind === "array" ? `${"[".repeat(levels)}1${"]".repeat(levels)}` : `${'{"a":'.repeat(levels)}1${"}".repeat(levels)}`;
const DEEP = "__DEEP_VALUE__";

/** A value for a schema that is usually wrong: the other JSON types, huge integers, NUL, surrogates, deep nesting, extreme dates. */
function wrongValue(s: Schema, name = ""): fc.Arbitrary<unknown> {
  const r = resolve(s);
  const types = [r.type].flat().filter(Boolean);
  const plausible: fc.Arbitrary<unknown>[] = [];
  if (isDateName(name)) plausible.push(fc.constantFrom(...EXTREME_DATES));
  if (types.includes("integer") || types.includes("number")) plausible.push(fc.constantFrom(...HUGE_INTS), fc.integer());
  if (types.includes("string")) plausible.push(hostileString);
  if (r.enum?.length) plausible.push(fc.constantFrom(...r.enum));
  if (types.includes("array") && r.items) plausible.push(fc.array(wrongValue(r.items), { maxLength: 4 }));
  const wrongType = fc.oneof(
    fc.constantFrom(null, true, false, 0, "", [], {}, "1", 2 ** 31, -1.5),
    hostileString,
    fc.constantFrom(...HUGE_INTS),
    fc.constantFrom(DEEP),
  );
  return plausible.length ? fc.oneof({ weight: 2, arbitrary: fc.oneof(...plausible) }, { weight: 2, arbitrary: wrongType }) : wrongType;
}

// ---- The world the requests name, and valid examples to mutate. ----

let server: TestServer;
let w: World;
let webhookSecret: string;
let conversationId: string;
/** A token of the world's team the token operations may revoke or roll: never the one calling. */
let spareTokenId: string;
let heapAtStart: number;
const savedLimit = process.env.RATE_LIMIT_PER_MINUTE;

beforeAll(async () => {
  process.env.RATE_LIMIT_PER_MINUTE = "0";
  server = await startServer();
  w = await createWorld();
  webhookSecret = (await createCloudNumber(w.team.id)).secrets.appSecret!;
  spareTokenId = String((await createToken({ input: { teamId: w.team.id, name: "spare" } })).id);
  const list = await fetch(`${server.url}/api/v1/conversations`, { headers: { authorization: `Bearer ${w.token}` } });
  conversationId = String(((await list.json()) as { data: { id: number }[] }).data[0]?.id ?? 1);
  heapAtStart = process.memoryUsage().heapUsed;
});

/** The heap's growth since the world was made: the process's (and so the tests' server's) work is bounded. */
function expectHeapBounded(label: string) {
  expect(process.memoryUsage().heapUsed - heapAtStart, `heap after ${label}`).toBeLessThan(HEAP_GROWTH_BOUND);
}
afterAll(async () => {
  if (savedLimit === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
  else process.env.RATE_LIMIT_PER_MINUTE = savedLimit;
  await server.close();
});

/** A valid value of a path parameter for the world's team (raw, encoded). */
function validPathValue(name: string): string {
  const known: Record<string, () => string> = {
    contactId: () => String(w.contact.id),
    labelId: () => String(w.labels[1].id),
    conversationId: () => conversationId,
    broadcastId: () => "1",
    tokenId: () => spareTokenId,
    update_id: () => w.updateId,
    channel: () => "whatsapp",
    path: () => w.mediaPath.split("/").map(encodeURIComponent).join("/"),
  };
  return (known[name] ?? (() => "1"))();
}

/** The hardening table's valid body or query for this operation, when it has one. */
function validExample(method: string, path: string): Record<string, unknown> | undefined {
  const ep = ENDPOINTS.find((e) => e.method === method && e.valid && e.path(w).split("?")[0] === fill(path, validPathValue));
  return ep?.valid?.(w);
}

function fill(path: string, value: (name: string) => string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => value(name));
}

type Req = { path: string; query: string; body?: { text: string | Uint8Array | FormData; type?: string }; key?: string | null };

function requestArb(method: string, path: string, op: Operation): fc.Arbitrary<Req> {
  const params = op.parameters ?? [];
  const pathNames = params.filter((p) => p.in === "path").map((p) => p.name);
  const queryParams = params.filter((p) => p.in === "query");
  const valid = validExample(method, path);

  // Path: each parameter valid or hostile.
  const pathArb = fc
    .tuple(...pathNames.map(() => fc.oneof({ weight: 1, arbitrary: fc.constant<string | null>(null) }, { weight: 3, arbitrary: rawValue })))
    .map((values) => fill(path, (name) => values[pathNames.indexOf(name)] ?? validPathValue(name)));

  // Query: the valid example (when there is one), with parameters replaced, repeated or added.
  const base = valid && !op.requestBody ? Object.entries(valid).map(([k, v]) => [enc(k), enc(String(v))] as [string, string]) : [];
  // A date parameter gets an extreme date half the time.
  const paramArb = () =>
    fc
      .constantFrom(...queryParams.map((p) => p.name))
      .chain((name) =>
        fc.tuple(fc.constant(enc(name)), isDateName(name) ? fc.oneof(fc.constantFrom(...EXTREME_DATES).map(enc), rawValue) : rawValue),
      );
  const queryArb = queryParams.length
    ? fc
        .array(paramArb(), { minLength: 1, maxLength: 4 })
        .chain((pairs) => fc.constantFrom([...base.filter(([k]) => !pairs.some(([p]) => p === k)), ...pairs], [...base, ...pairs], pairs))
        .map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join("&"))
    : fc.constantFrom("", `x=${RAW_SEGMENTS[9]}`);

  // Body, by the content type the operation documents.
  const content = op.requestBody?.content ?? {};
  let bodyArb: fc.Arbitrary<Req["body"]> = fc.constant(undefined);
  if (content["application/json"]) {
    const schema = resolve(content["application/json"].schema);
    const props = Object.entries(schema.properties ?? {});
    const start = valid ?? {};
    const mutated = props.length
      ? fc.array(fc.tuple(fc.constantFrom(...props), fc.boolean()), { minLength: 1, maxLength: 3 }).chain((picks) =>
          fc.tuple(...picks.map(([[k, s]]) => wrongValue(s, k))).map((values) => {
            const out: Record<string, unknown> = { ...start };
            picks.forEach(([[k], drop], i) => {
              if (drop && i === 0) delete out[k];
              else out[k] = values[i];
            });
            return out;
          }),
        )
      : fc.constant(start);
    const whole = fc.oneof(
      { weight: 6, arbitrary: mutated },
      { weight: 1, arbitrary: fc.constantFrom<unknown>(null, [], "texto", 2 ** 53, [start], { [DEEP]: 1 }) },
      { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
    );
    bodyArb = fc
      // Around the body depth limit (lib/http/json-limits.ts MAX_BODY_DEPTH), where a recursive
      // walk ran out of stack (about 2,000 levels), and far past it.
      .tuple(whole, fc.constantFrom(63, 65, 2_500, 40_000), fc.constantFrom("array" as const, "object" as const))
      .map(([b, levels, kind]) => {
        const text = (JSON.stringify(b) ?? "null").replace(`"${DEEP}"`, deepText(levels, kind));
        return { text, type: "application/json" };
      });
  } else if (content["text/csv"]) {
    bodyArb = fc
      .array(fc.array(hostileString, { maxLength: 4 }), { maxLength: 5 })
      .map((rows) => ({ text: ["name,number", ...rows.map((r) => r.join(","))].join("\n"), type: "text/csv" }));
  } else if (content["multipart/form-data"]) {
    bodyArb = fc.tuple(hostileString, fc.uint8Array({ maxLength: 64 }), fc.boolean()).map(([name, bytes, asFile]) => {
      const form = new FormData();
      if (asFile) form.append("file", new Blob([bytes]), name || "x");
      else form.append("file", name);
      return { text: form };
    });
  } else if (method === "POST" && path === "/api/v1/webhooks/whatsapp") {
    // Meta's webhook has no documented body schema: signed JSON of any shape, deep or not.
    bodyArb = fc
      .oneof(
        fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
        fc.constantFrom(deepText(40_000, "array"), "{", ""),
      )
      .map((text) => ({ text, type: "application/json" }));
  }
  // Half the requests carry an Idempotency-Key (the four sends hash their body with it).
  return fc.record({ path: pathArb, query: queryArb, body: bodyArb, key: fc.option(fc.uuid(), { freq: 2 }) });
}

async function call(method: string, op: Operation, req: Req) {
  const headers: Record<string, string> = {};
  const isPublic = Array.isArray(op.security) && op.security.length === 0;
  // A token operation may revoke or roll its own caller (any id of the team, hostile ones
  // included): each gets a caller of its own, so the world's token outlives the fuzzing.
  const bearer = req.path.startsWith("/api/v1/tokens")
    ? (await createToken({ input: { teamId: w.team.id, name: "caller" } })).token
    : w.token;
  if (!isPublic) headers.authorization = `Bearer ${bearer}`;
  if (req.body?.type) headers["content-type"] = req.body.type;
  if (req.key) headers["idempotency-key"] = req.key;
  if (req.path === "/api/v1/webhooks/whatsapp" && typeof req.body?.text === "string")
    headers["x-hub-signature-256"] = sign(webhookSecret, req.body.text);
  const url = `${server.url}${req.path}${req.query ? `?${req.query}` : ""}`;
  const abort = new AbortController();
  const res = await fetch(url, { method, headers, body: req.body?.text as BodyInit | undefined, signal: abort.signal });
  // A 200 event stream never ends by itself: its status and headers are the answer.
  if ((res.headers.get("content-type") ?? "").startsWith("text/event-stream")) {
    abort.abort();
    return { status: res.status, text: "" };
  }
  return { status: res.status, text: await res.text() };
}

describe("OpenAPI-driven property test: no 5xx, every error in the API's shape", { timeout: 120_000 }, () => {
  it("covers every documented operation", () => {
    expect(operations.length).toBeGreaterThanOrEqual(40);
  });

  it.each(operations.map((o) => [o.name, o] as const))("%s", async (_name, { method, path, op }) => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(requestArb(method, path, op), async (req) => {
        const { status, text } = await call(method, op, req);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        const label = `${status} <- ${method} ${req.path.slice(0, 200)}?${req.query.slice(0, 200)} ${String(req.body?.text).slice(0, 200)}: ${text.slice(0, 300)}`;
        expect(status, label).toBeLessThan(500);
        expect(ruledBodyProblem(status, text), label).toBeNull();
        expectHeapBounded(label.slice(0, 300));
      }),
      // Sign-in hashes a password per well-formed request (scrypt): fewer runs keep it bounded.
      { numRuns: path === "/api/v1/auth/login" ? Math.ceil(RUNS / 3) : RUNS },
    );
    // The requests must reach past authentication: some answer something other than 401.
    expect(
      [...statuses.keys()].some((s) => s !== 401),
      JSON.stringify([...statuses]),
    ).toBe(true);
  });
});

/** Every method Node's parser knows, and two it does not. */
const ALL_METHODS = [...http.METHODS, "TRACK", "FOO"];

describe("every HTTP method on every documented path: no 5xx, the API's error body", { timeout: 120_000 }, () => {
  it.each(Object.keys(doc.paths).map((p) => [p] as const))("%s", async (path) => {
    // The documented methods are the property's above; here, all the others, over a raw socket
    // (fetch refuses TRACE, TRACK and CONNECT).
    const documented = new Set(Object.keys(doc.paths[path]).map((m) => m.toUpperCase()));
    // HEAD runs GET (as under Next): an event stream's GET never ends by itself (the property covers it).
    if (JSON.stringify(doc.paths[path].get ?? {}).includes("text/event-stream")) documented.add("HEAD");
    const target = fill(path, validPathValue);
    for (const method of ALL_METHODS.filter((m) => !documented.has(m))) {
      const res = await rawRequest(server.url, `${method} ${target} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${w.token}`);
      const label = `${res.status} <- ${method} ${target}: ${res.body.slice(0, 300)}`;
      expect(res.status, label).toBeLessThan(500);
      if (method !== "HEAD") expect(ruledBodyProblem(res.status, res.body), label).toBeNull();
      expectHeapBounded(label);
    }
  });
});
