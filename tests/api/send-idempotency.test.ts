import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { countMessages, idempotencyRow, messageByUpdateId, sendingTeam } from "../helpers/send-factories";
import { and, eq, sql } from "drizzle-orm";
import { getDb } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";
import { canonicalJson, sweepExpiredKeys } from "@/lib/idempotency/service";

const SEND = "/api/v1/message_templates/send";
const REUSED = "La clave Idempotency-Key ya se usó con una solicitud distinta; use una clave nueva para cada envío.";
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Setup = Awaited<ReturnType<typeof sendingTeam>>;
const body = (s: Setup, extra: Record<string, unknown> = {}) => ({
  wa_number: s.number.number,
  destination: "573001234567",
  template_name: s.template.name,
  header_param: { key: "1", value: "Ana" },
  body_params: [
    { key: "1", value: "A-77" },
    { key: "2", value: "martes" },
  ],
  ...extra,
});
const keyed = (key: string) => ({ "idempotency-key": key });

describe("Idempotency-Key on POST /message_templates/send", () => {
  it("replays the first response for a retry with the same body, creating nothing", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const first = await api.post(SEND, body(s), keyed("pedido-1"));
    expect(first.status).toBe(200);
    expect(first.headers.get("idempotent-replayed")).toBeNull();
    // Same request with its keys in another order: the canonical JSON is the same.
    const { body_params, template_name, ...rest } = body(s);
    const retry = await api.post(SEND, { body_params, ...rest, template_name }, keyed("pedido-1"));
    expect(retry.status).toBe(200);
    expect(retry.body).toEqual(first.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(await countMessages(s.team.id)).toBe(1);
    const stored = await idempotencyRow(s.team.id, "pedido-1");
    expect(stored).toMatchObject({ statusCode: 200, response: first.body });
    expect(stored.requestHash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("answers 422 when the key comes back with another body, creating nothing", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    expect((await api.post(SEND, body(s), keyed("k-2"))).status).toBe(200);
    const other = await api.post(SEND, body(s, { destination: "573009990000" }), keyed("k-2"));
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ message: REUSED, errors: { "Idempotency-Key": [REUSED] } });
    expect(await countMessages(s.team.id)).toBe(1);
  });

  it("does not store a rejected request: a corrected retry with the same key goes through", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const bad = await api.post(SEND, body(s, { template_name: "no_existe" }), keyed("k-3"));
    expect(bad.status).toBe(422);
    expect(await idempotencyRow(s.team.id, "k-3")).toBeUndefined();
    const good = await api.post(SEND, body(s), keyed("k-3"));
    expect(good.status).toBe(200);
    expect(await messageByUpdateId(good.body.data.update_id)).toBeDefined();
    expect((await idempotencyRow(s.team.id, "k-3")).response).toEqual(good.body);
  });

  it("sends each request without a key (and each distinct key) as a new message", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const a = await api.post(SEND, body(s));
    const b = await api.post(SEND, body(s));
    const c = await api.post(SEND, body(s), keyed("k-4a"));
    const d = await api.post(SEND, body(s), keyed("k-4b"));
    const ids = new Set([a, b, c, d].map((r) => r.body.data.update_id));
    expect(ids.size).toBe(4);
    expect(await countMessages(s.team.id)).toBe(4);
  });

  it("scopes keys by team: another team's identical key is its own send", async () => {
    const a = await sendingTeam();
    const b = await sendingTeam();
    const ra = await apiClient(server.url, a.team.token).post(SEND, body(a), keyed("shared-key"));
    const rb = await apiClient(server.url, b.team.token).post(SEND, body(b), keyed("shared-key"));
    expect([ra.status, rb.status]).toEqual([200, 200]);
    expect(ra.body.data.update_id).not.toBe(rb.body.data.update_id);
    expect(await countMessages(a.team.id)).toBe(1);
    expect(await countMessages(b.team.id)).toBe(1);
  });

  it("accepts keys up to 200 characters and refuses longer or blank ones", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    expect((await api.post(SEND, body(s), keyed("k".repeat(200)))).status).toBe(200);
    const long = await api.post(SEND, body(s), keyed("k".repeat(201)));
    expect(long.status).toBe(422);
    expect(long.body.message).toBe("El encabezado Idempotency-Key no puede tener más de 200 caracteres.");
    const blank = await api.post(SEND, body(s), keyed("   "));
    expect(blank.status).toBe(422);
    expect(blank.body.message).toBe("El encabezado Idempotency-Key no puede estar vacío.");
    expect(await countMessages(s.team.id)).toBe(1);
  });

  it("creates exactly one message for 20 concurrent identical requests", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const results = await Promise.all(Array.from({ length: 20 }, () => api.post(SEND, body(s), keyed("rafaga"))));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect(new Set(results.map((r) => r.body.data.update_id)).size).toBe(1);
    expect(results.filter((r) => r.headers.get("idempotent-replayed") === null)).toHaveLength(1);
    expect(await countMessages(s.team.id)).toBe(1);
  });

  it("answers concurrent requests with one key and different bodies with one success", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) => api.post(SEND, body(s, { sent_group: `g${i}` }), keyed("carrera"))),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 422).every((r) => r.body.message === REUSED)).toBe(true);
    expect(await countMessages(s.team.id)).toBe(1);
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every level and keeps array order", () => {
    expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null }, e: undefined })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
    expect(canonicalJson({ x: 'ü"' })).toBe('{"x":"ü\\""}');
  });

  it("expires a key after IDEMPOTENCY_TTL_HOURS: the retry is a new send, and the sweep deletes only expired keys", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const first = await api.post(SEND, body(s), keyed("viejo"));
    expect((await api.post(SEND, body(s), keyed("fresco"))).status).toBe(200);
    const db = await getDb();
    // 25 hours ago, past the default 24-hour window.
    await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(and(eq(idempotencyKeys.teamId, s.team.id), eq(idempotencyKeys.key, "viejo")));

    // Another body under the expired key is not a reuse: it is sent, and takes the key over.
    const again = await api.post(SEND, body(s, { destination: "573009990001" }), keyed("viejo"));
    expect(again.status).toBe(200);
    expect(again.headers.get("idempotent-replayed")).toBeNull();
    expect(again.body.data.update_id).not.toBe(first.body.data.update_id);
    expect(await countMessages(s.team.id)).toBe(3);
    // …and from now on replays that new answer.
    const retry = await api.post(SEND, body(s, { destination: "573009990001" }), keyed("viejo"));
    expect(retry.body).toEqual(again.body);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");

    await db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(and(eq(idempotencyKeys.teamId, s.team.id), eq(idempotencyKeys.key, "viejo")));
    expect(await sweepExpiredKeys(true)).toBeGreaterThanOrEqual(1);
    expect(await idempotencyRow(s.team.id, "viejo")).toBeUndefined();
    expect(await idempotencyRow(s.team.id, "fresco")).toMatchObject({ statusCode: 200 });
  });
});
