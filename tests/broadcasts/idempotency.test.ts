import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KEY_REUSED } from "@/lib/idempotency/service";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createNumber } from "../helpers/factories";
import { broadcastMessages, broadcastTeam, body, createContact } from "./helpers";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const B = "/api/v1/broadcasts";

async function world() {
  const t = await broadcastTeam();
  const number = await createNumber(t.team.id);
  await createContact(t.team.id, { name: "Ana", labelIds: [t.labels.vip.id] });
  await createContact(t.team.id, { name: "Beto", labelIds: [t.labels.vip.id] });
  const request = body({ wa_number: number.number, template_name: t.template.name, audience: { labels_any: [t.labels.vip.id] } });
  return { ...t, request, api: apiClient(server.url, t.team.token) };
}

async function broadcastCount(api: ReturnType<typeof apiClient>) {
  return (await api.get(B)).body.pagination.total_items as number;
}

describe("POST /api/v1/broadcasts with an Idempotency-Key", () => {
  it("a retried create answers the first broadcast and enqueues nothing more", async () => {
    const w = await world();
    const first = await w.api.post(B, w.request, { "Idempotency-Key": "bc-1" });
    expect(first.status).toBe(201);
    expect(first.body.message).toBe("Difusión creada: 2 destinatarios en cola, 0 rechazados.");
    const again = await w.api.post(B, w.request, { "Idempotency-Key": "bc-1" });
    expect(again.status).toBe(201);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body.message).toBe(first.body.message);
    expect(again.body.data.id).toBe(first.body.data.id);
    expect(await broadcastCount(w.api)).toBe(1);
    expect(await broadcastMessages(w.team.id, first.body.data.id)).toHaveLength(2);

    // Another key (or none) is another broadcast.
    const other = await w.api.post(B, w.request, { "Idempotency-Key": "bc-2" });
    expect(other.body.data.id).not.toBe(first.body.data.id);
    expect(await broadcastCount(w.api)).toBe(2);
  });

  it("two concurrent creates with one key make one broadcast", async () => {
    const w = await world();
    const [a, b] = await Promise.all([
      w.api.post(B, w.request, { "Idempotency-Key": "twin" }),
      w.api.post(B, w.request, { "Idempotency-Key": "twin" }),
    ]);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.data.id).toBe(b.body.data.id);
    expect(await broadcastCount(w.api)).toBe(1);
    expect(await broadcastMessages(w.team.id, a.body.data.id)).toHaveLength(2);
  });

  it("refuses the key reused for another request, and a refused create does not burn its key", async () => {
    const w = await world();
    const bad = await w.api.post(B, { ...w.request, name: "" }, { "Idempotency-Key": "k" });
    expect(bad.status).toBe(422);
    const ok = await w.api.post(B, w.request, { "Idempotency-Key": "k" });
    expect(ok.status).toBe(201);
    const reused = await w.api.post(B, { ...w.request, name: "Otra" }, { "Idempotency-Key": "k" });
    expect(reused.status).toBe(422);
    expect(reused.body.errors).toEqual({ "Idempotency-Key": [KEY_REUSED] });
    expect(await broadcastCount(w.api)).toBe(1);
  });
});
