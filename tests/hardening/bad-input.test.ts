import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { createWorld, teamDigest, type World } from "../helpers/hardening-world";
import { DOCUMENTED_STATUSES, ENDPOINTS, ruledBodyProblem, type Endpoint } from "../helpers/hardening-routes";
import {
  BAD_COOKIES,
  MALFORMED_PERCENT,
  mutatedBody,
  mutatedQuery,
  nastyString,
  poisonedBody,
  traversalPaths,
  transport,
  UNSTORABLE_STRINGS,
  type RawBody,
} from "../helpers/hardening-arbitraries";
import { createCloudNumber, sign } from "../helpers/delivery-factories";
import { change, envelope, inboundMessage, statusUpdate, wamid } from "../fixtures/webhooks";

/**
 * Property-based bad input against every endpoint: whatever arrives, the answer is a documented
 * status with the ruled body, never a 5xx, and a refused request leaves the team's rows as they were.
 * HARDENING_RUNS scales the number of generated requests per endpoint.
 */
const RUNS = Number(process.env.HARDENING_RUNS || 120);
let server: TestServer;
let w: World;
let other: World;
const savedLimit = process.env.RATE_LIMIT_PER_MINUTE;

beforeAll(async () => {
  process.env.RATE_LIMIT_PER_MINUTE = "0";
  server = await startServer();
  w = await createWorld();
  other = await createWorld();
});
afterAll(async () => {
  if (savedLimit === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
  else process.env.RATE_LIMIT_PER_MINUTE = savedLimit;
  await server.close();
});

type Sent = { method: string; path: string; body?: RawBody; headers?: Record<string, string> };

async function send(ep: Endpoint, req: Sent) {
  const headers: Record<string, string> = { ...req.headers };
  if (ep.auth === "token") headers.authorization = `Bearer ${w.token}`;
  if (req.body?.contentType) headers["content-type"] = req.body.contentType;
  const before = ep.writes ? await teamDigest(w.team.id) : "";
  const res = await fetch(server.url + req.path, { method: req.method, headers, body: req.body?.body as BodyInit | undefined });
  const text = await res.text();
  const label = `${ep.name}: ${req.method} ${req.path.slice(0, 300)} ${String(req.body?.contentType)} ${String(req.body?.body).slice(0, 300)}`;
  expect(DOCUMENTED_STATUSES.has(res.status), `${res.status} ${text.slice(0, 300)} <- ${label}`).toBe(true);
  expect(ruledBodyProblem(res.status, text), label).toBeNull();
  if (ep.writes && res.status >= 400) expect(await teamDigest(w.team.id), `wrote on ${res.status}: ${label}`).toBe(before);
  return res.status;
}

function idStrings(): string[] {
  return [
    ...traversalPaths(w.team.id, other.team.id),
    other.mediaPath,
    String(other.labels[0].id),
    String(other.bot.id),
    String(other.campaign.id),
    other.number.number,
    other.template.name,
    other.contact.customerNumber!,
  ];
}

const jsonEndpoints = ENDPOINTS.filter((e) => e.input === "json");
const queryEndpoints = ENDPOINTS.filter((e) => e.input === "query");

// Generous per-test limits: the suite shares two cores with everything else CI runs.
describe("bad input, generated, on every endpoint", { timeout: 120_000 }, () => {
  it.each(jsonEndpoints.map((e) => [e.name, e] as const))("JSON body: %s", async (_name, ep) => {
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(
        transport(
          fc.oneof({ weight: 3, arbitrary: mutatedBody(ep.valid!(w), idStrings()) }, { weight: 1, arbitrary: poisonedBody(ep.valid!(w)) }),
        ),
        async (body) => {
          const status = await send(ep, { method: ep.method, path: ep.path(w), body });
          statuses.set(status, (statuses.get(status) ?? 0) + 1);
        },
      ),
      // Login hashes a password per valid-looking request (scrypt): fewer runs keep it bounded.
      { numRuns: ep.name === "login" ? Math.ceil(RUNS / 3) : RUNS },
    );
    // The generator must reach past the parser: some requests get to validation (422).
    expect(statuses.get(422) ?? 0, JSON.stringify([...statuses])).toBeGreaterThan(0);
  });

  it.each(queryEndpoints.map((e) => [e.name, e] as const))("query string: %s", async (_name, ep) => {
    const raw = fc.oneof(
      fc.constantFrom("page=%ED%A0%80", "page=%", "%zz=1", "per_page=1&per_page=%00", "page=1e3", "per_page=-0", "from_date=2024-02-30"),
      // Every key of a valid query with a malformed encoding, a NUL or a lone surrogate (CESU-8) as its value.
      fc
        .tuple(
          fc.constantFrom(...Object.keys(ep.valid!(w))),
          fc.constantFrom(...MALFORMED_PERCENT, "%00", "a%00b", "%ED%A0%80", "x%ED%B0%80y"),
        )
        .map(([k, bad]) =>
          Object.entries(ep.valid!(w) as Record<string, string>)
            .map(([key, v]) => `${encodeURIComponent(key)}=${key === k ? bad : encodeURIComponent(v)}`)
            .join("&"),
        ),
    );
    await fc.assert(
      fc.asyncProperty(fc.oneof(mutatedQuery(ep.valid!(w) as Record<string, string>), raw), async (q) => {
        await send(ep, { method: ep.method, path: `${ep.path(w)}?${q}` });
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  const segment = fc.oneof(
    // Not "..", "%2e%2e": the client resolves them to another URL.
    fc.constantFrom(
      "0",
      "-1",
      "1.5",
      "2147483648",
      "99999999999",
      "1e3",
      "0x10",
      "%20%31",
      "%00",
      "%2F",
      "null",
      "%C3%A9",
      "%E2%80%AE",
      "a%00b",
    ),
    // Malformed percent-encoding (Next itself would answer a bare 500; proxy.ts answers 400 first),
    // and a lone surrogate, which only travels as CESU-8 bytes that are not UTF-8.
    fc.constantFrom(...MALFORMED_PERCENT, "%ED%A0%80", "x%ED%B0%80"),
    fc.string({ unit: fc.constantFrom(..."%0123456789abcdefzZ"), minLength: 1, maxLength: 9 }).filter((x) => x !== "." && x !== ".."),
    fc.integer().map(String),
    nastyString
      .filter((s) => s.length > 0 && s.length < 2000)
      .map((s) => encodeURIComponent(s.replace(/[\uD800-\uDFFF]/g, "?")))
      .filter((s) => s !== "." && s !== ".."),
  );
  const pathCases: [string, (seg: string) => string][] = [
    ["label update", (s) => `/api/v1/contacts/labels/${s}`],
    ["label delete", (s) => `/api/v1/contacts/labels/${s}`],
    ["contact labels add", (s) => `/api/v1/contacts/${s}/labels`],
    ["contact labels remove", (s) => `/api/v1/contacts/${s}/labels`],
    ["update", (s) => `/api/v1/updates/${s}`],
    ["update media", (s) => `/api/v1/updates/${s}/media`],
    ["media get", (s) => `/api/v1/media/uploads/team${w.team.id}/${s}`],
    ["history", (s) => `/api/v1/messages/${s}/history?wa_number=${w.number.number}&customer_source=1&from_date=2024-01-01`],
  ];
  it.each(pathCases)("path parameter: %s", async (name, pathOf) => {
    const ep = ENDPOINTS.find((e) => e.name === name)!;
    await fc.assert(
      fc.asyncProperty(segment, async (seg) => {
        const body = ep.input === "json" ? { body: JSON.stringify(ep.valid!(w)), contentType: "application/json" } : undefined;
        await send(ep, { method: ep.method, path: pathOf(seg), body });
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it("media paths: traversal in every spelling never serves another team's file", async () => {
    const ep = ENDPOINTS.find((e) => e.name === "media get")!;
    const otherName = other.mediaPath.split("/").pop()!;
    const variants = [
      ...traversalPaths(w.team.id, other.team.id).map((p) => p.replaceAll("\u0000", "%00")),
      `uploads/team${w.team.id}/..%2fteam${other.team.id}%2f${otherName}`,
      `uploads/team${w.team.id}/%2e%2e/team${other.team.id}/${otherName}`,
      `uploads/team${w.team.id}/..%5cteam${other.team.id}%5c${otherName}`,
      `uploads/team${w.team.id}%2f..%2fteam${other.team.id}%2f${otherName}`,
      other.mediaPath,
    ];
    for (const p of variants) {
      const status = await send(ep, { method: "GET", path: `/api/v1/media/${p}` });
      expect([400, 403, 404], p).toContain(status);
    }
  });

  it("multipart upload: malformed forms, wrong fields, odd names and bytes", async () => {
    const ep = ENDPOINTS.find((e) => e.name === "media upload")!;
    const boundary = "----hardening";
    const part = (name: string, filename: string | null, bytes: Uint8Array) =>
      Buffer.concat([
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${name}"${filename === null ? "" : `; filename="${filename}"`}\r\nContent-Type: application/octet-stream\r\n\r\n`,
        ),
        Buffer.from(bytes),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
    const form = fc.tuple(
      fc.constantFrom("file", "FILE", "files", ""),
      fc.oneof(
        fc.constant(null),
        nastyString.map((s) => s.replace(/["\r\n]/g, "")),
        fc.constantFrom(
          "x.pdf",
          "../../x.pdf",
          "x.pdf.exe",
          "x.png",
          "%2e%2e.pdf",
          "x\u0000.pdf",
          "\u0000",
          "x.pdf\u0000.png",
          "\uD800.pdf",
          "a\uDC00b",
        ),
      ),
      fc.oneof(
        fc.uint8Array({ maxLength: 200 }),
        fc.constant(new TextEncoder().encode("%PDF-1.4 tiny")),
        fc.constant(Uint8Array.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
      ),
      fc.constantFrom(
        `multipart/form-data; boundary=${boundary}`,
        "multipart/form-data",
        `multipart/form-data; boundary=other`,
        "application/json",
        "text/plain",
      ),
      fc.boolean(),
    );
    await fc.assert(
      fc.asyncProperty(form, async ([name, filename, bytes, contentType, truncate]) => {
        let body: Uint8Array = part(name, filename, bytes);
        if (truncate) body = body.subarray(0, Math.floor(body.length / 2));
        await send(ep, { method: "POST", path: ep.path(w), body: { body, contentType } });
      }),
      { numRuns: RUNS },
    );
  });

  it("multipart upload: NUL and lone surrogates in the file name of an otherwise valid file", async () => {
    const ep = ENDPOINTS.find((e) => e.name === "media upload")!;
    const boundary = "----unstorable";
    const pdf = new TextEncoder().encode("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF\n");
    const name = fc
      .tuple(fc.constantFrom(...UNSTORABLE_STRINGS), fc.constantFrom("", "factura", "x.pdf"), fc.boolean())
      .map(([bad, base, before]) => (before ? `${bad}${base}` : `${base}${bad}`));
    await fc.assert(
      fc.asyncProperty(name, async (filename) => {
        const body = Buffer.concat([
          Buffer.from(
            `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/pdf\r\n\r\n`,
          ),
          Buffer.from(pdf),
          Buffer.from(`\r\n--${boundary}--\r\n`),
        ]);
        await send(ep, { method: "POST", path: ep.path(w), body: { body, contentType: `multipart/form-data; boundary=${boundary}` } });
      }),
      { numRuns: Math.ceil(RUNS / 4) },
    );
  });

  it("signed webhook: any unsigned or wrongly signed body is refused, never stored", async () => {
    const ep = ENDPOINTS.find((e) => e.name === "webhook receive")!;
    await fc.assert(
      fc.asyncProperty(
        transport(fc.jsonValue({ maxDepth: 4 })),
        fc.oneof(
          fc.constant(undefined),
          fc.constantFrom("sha256=", "sha256=00", "md5=abc"),
          fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: 64, maxLength: 64 }).map((h) => `sha256=${h}`),
        ),
        async (body, signature) => {
          const status = await send(ep, {
            method: "POST",
            path: ep.path(w),
            body,
            headers: signature ? { "x-hub-signature-256": signature } : {},
          });
          expect([400, 401, 413, 415]).toContain(status);
        },
      ),
      { numRuns: RUNS },
    );
  });

  it("malformed session cookies count as no session on every endpoint (401 or the public route's own answer)", async () => {
    for (const ep of ENDPOINTS) {
      const body = ep.input === "json" ? JSON.stringify(ep.valid!(w)) : undefined;
      for (const cookie of BAD_COOKIES) {
        const headers: Record<string, string> = { cookie };
        if (body) headers["content-type"] = "application/json";
        const res = await fetch(server.url + ep.path(w), { method: ep.method, headers, body });
        const text = await res.text();
        const label = `${ep.name} ${cookie.slice(0, 60)}`;
        expect(res.status, `${res.status} ${text.slice(0, 200)} <- ${label}`).toBeLessThan(500);
        expect(ruledBodyProblem(res.status, text), label).toBeNull();
        if (ep.auth === "token") expect(res.status, label).toBe(401);
      }
    }
  });

  it("headers with NUL-like, non-UTF-8 or malformed values never cause a 5xx", async () => {
    const junk = ["%00", "a%zz", "\xED\xA0\x80", "\xFF\xFE", "%ED%A0%80", "x".repeat(4000)];
    const send1 = ENDPOINTS.find((e) => e.name === "send")!;
    for (const value of junk) {
      for (const [ep, headers] of [
        [send1, { "idempotency-key": value, "content-type": "application/json" }],
        [send1, { "content-type": `application/json; charset=${value}` }],
        [ENDPOINTS.find((e) => e.name === "contacts")!, { "if-none-match": value, "accept-language": value }],
        [
          ENDPOINTS.find((e) => e.name === "webhook receive")!,
          { "x-hub-signature-256": `sha256=${value}`, "content-type": "application/json" },
        ],
      ] as const) {
        const body = ep.input === "json" ? { body: JSON.stringify(ep.valid!(w)), contentType: headers["content-type"] ?? null } : undefined;
        await send(ep, { method: ep.method, path: ep.path(w), body, headers: { ...headers } as Record<string, string> });
      }
    }
  });

  it("signed webhook: NUL, lone surrogates and absurd values anywhere in a genuine batch never cause a 5xx", async () => {
    const cloud = await createCloudNumber(w.team.id);
    const ep = ENDPOINTS.find((e) => e.name === "webhook receive")!;
    const unstorable = fc.oneof(fc.constantFrom("\u0000", "a\u0000b", "\uD800", "x\uDC00y", "\uDBFF"), nastyString);
    const value = fc.oneof(
      unstorable,
      fc.jsonValue({ maxDepth: 2 }),
      fc.constantFrom("99999999999999999999", "-1", "1e400", "NaN", 1e308, -5),
    );
    const messageOf = fc
      .tuple(
        fc.constantFrom("text", "image", "button", "interactive", "system", "contacts", "location", "unknown"),
        fc.constantFrom("id", "from", "timestamp", "type", "text", "context", "errors", "image", "extra"),
        value,
      )
      .map(([type, key, v]) => {
        const m = inboundMessage(type === "interactive" ? "button_reply" : (type as "text"), { from: w.contact.customerNumber! }) as Record<
          string,
          unknown
        >;
        return { ...m, id: wamid(), [key]: v };
      });
    const batch = fc
      .tuple(fc.array(messageOf, { minLength: 1, maxLength: 4 }), unstorable, fc.option(value))
      .map(([msgs, name, statusTs]) => {
        const c = change(cloud.phoneNumberId, {
          contacts: [{ wa_id: w.contact.customerNumber!, name }],
          messages: msgs,
          statuses: statusTs === null ? [] : [{ ...statusUpdate("read", { id: wamid(), to: "1" }), timestamp: statusTs }],
        });
        return envelope(c);
      });
    await fc.assert(
      fc.asyncProperty(batch, async (body) => {
        const raw = JSON.stringify(body);
        const res = await fetch(server.url + ep.path(w), {
          method: "POST",
          headers: { "content-type": "application/json", "x-hub-signature-256": sign(cloud.secrets.appSecret, raw) },
          body: raw,
        });
        const text = await res.text();
        expect(res.status, `${res.status} ${text.slice(0, 300)} <- ${raw.slice(0, 500)}`).toBe(200);
      }),
      { numRuns: Math.ceil(RUNS / 2) },
    );
  });

  it("bodyless and public endpoints answer with documented statuses to junk headers", async () => {
    for (const ep of ENDPOINTS.filter((e) => e.input === "none")) {
      for (const headers of [{}, { "content-type": "application/json" }, { "if-none-match": '"x"' }, { cookie: "wa_session=%01%00junk" }]) {
        await send(ep, { method: ep.method, path: ep.path(w), headers: headers as Record<string, string> });
      }
    }
  });
});
