import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq, sql } from "drizzle-orm";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createNumber, createTeam } from "../helpers/factories";
import { sign } from "../helpers/delivery-factories";
import { waitFor } from "../helpers/wait";
import { workerPool } from "../helpers/workers";
import { startReceiver } from "../fakes/receiver";
import { getDb } from "@/db/client";
import { auditEvents, webhookDeliveries, webhookEndpoints } from "@/db/schema";

/**
 * The team's webhook endpoints (docs/features/outgoing-webhooks.md) over HTTP, with the real
 * delivery worker posting to a local receiver: every event of the log reaches the endpoints
 * subscribed to it, signed; a rolled secret signs beside the old one during the overlap; resends;
 * three days of failures disable an endpoint; another team sees nothing of it.
 */
let server: TestServer;
const workers = workerPool({ pollMs: 50, backoffBaseMs: 50, backoffCapMs: 100 });
beforeAll(async () => {
  // The receiver listens on 127.0.0.1: the address rule is lifted here, as in e2e.
  process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
  server = await startServer();
});
afterAll(async () => {
  await workers.stopAll();
  await server.close();
});

async function setUp(events: string[] = ["*"]) {
  const team = await createTeam();
  const api = apiClient(server.url, team.token);
  const receiver = await startReceiver();
  const res = await api.post("/api/v1/webhook_endpoints", { url: receiver.url, description: "CRM", events });
  expect(res.status).toBe(201);
  return { team, api, receiver, endpoint: res.body.data.endpoint, secret: res.body.data.secret as string };
}

/** An event of the log written by the service layer (PATCH /contacts: `contact.updated`). */
async function optOut(api: ReturnType<typeof apiClient>, teamId: number, value = true) {
  const contact = await createContact(teamId);
  const res = await api.patch(`/api/v1/contacts/${contact.id}`, { marketing_opt_out: value });
  expect(res.status).toBe(200);
  return contact;
}

const deliveriesOf = async (endpointId: number) =>
  (await getDb())
    .select()
    .from(webhookDeliveries)
    .where(and(eq(webhookDeliveries.targetKind, "endpoint"), eq(webhookDeliveries.targetId, endpointId)));

describe("webhook endpoints", () => {
  it("creates an endpoint whose secret is shown once and delivers each subscribed event signed", async () => {
    const { team, api, receiver, endpoint, secret } = await setUp(["contact.updated", "message.created"]);
    try {
      expect(secret).toMatch(/^whsec_[\w-]{32}$/);
      expect(endpoint).toMatchObject({
        url: receiver.url,
        description: "CRM",
        events: ["message.created", "contact.updated"],
        enabled: true,
      });
      const listed = await api.get("/api/v1/webhook_endpoints");
      expect(JSON.stringify(listed.body)).not.toContain(secret);
      const stored = await (await getDb()).select().from(webhookEndpoints).where(eq(webhookEndpoints.id, endpoint.id));
      expect(JSON.stringify(stored)).not.toContain(secret);

      const contact = await optOut(api, team.id);
      // A message from the sandbox: `message.created` is written by a trigger on messages, not by TypeScript.
      const number = await createNumber(team.id);
      const inbound = await api.post("/api/v1/sandbox/inbound", {
        wa_number: number.number,
        from: "573001234567",
        type: "text",
        payload: { body: "hola" },
      });
      expect(inbound.status).toBe(200);
      workers.start({ teamIds: [team.id] });
      await waitFor(
        () => receiver.received.length,
        (n) => n >= 2,
      );
      const byEvent = Object.fromEntries(receiver.received.map((r) => [r.body.event, r]));
      expect(Object.keys(byEvent).sort()).toEqual(["contact.updated", "message.created"]);
      for (const r of receiver.received) {
        expect(r.headers["x-signature-256"]).toBe(sign(secret, r.raw));
        expect(r.headers["x-webhook-event"]).toBe(r.body.event);
        expect(r.body).toMatchObject({ id: expect.any(Number), event_id: expect.any(Number), occurred_at: expect.any(String) });
      }
      expect(byEvent["contact.updated"].body.data).toMatchObject({ contact_id: contact.id, marketing_opt_out: { reason: "agent" } });

      const log = await waitFor(
        () => api.get(`/api/v1/webhook_endpoints/${endpoint.id}/deliveries`),
        (res) => res.body.data?.length === 2 && res.body.data.every((d: { status: string }) => d.status === "delivered"),
      );
      expect(log.body.data[0]).toMatchObject({
        target_kind: "endpoint",
        target_id: endpoint.id,
        attempts: 1,
        last_status_code: 200,
        last_attempt_at: expect.any(String),
        last_duration_ms: expect.any(Number),
        payload: expect.objectContaining({ event: expect.any(String) }),
      });
    } finally {
      await receiver.close();
    }
  });

  it("sends only the subscribed types, and nothing to a disabled endpoint", async () => {
    const { team, api, receiver, endpoint } = await setUp(["note.created"]);
    try {
      await optOut(api, team.id);
      expect(await deliveriesOf(endpoint.id)).toHaveLength(0);
      const off = await api.patch(`/api/v1/webhook_endpoints/${endpoint.id}`, { enabled: false, events: ["*"] });
      expect(off.body.data).toMatchObject({ enabled: false, disabled_reason: "manual", events: ["*"] });
      await optOut(api, team.id);
      expect(await deliveriesOf(endpoint.id)).toHaveLength(0);
    } finally {
      await receiver.close();
    }
  });

  it("signs with both secrets while a roll overlaps, then with the new one only", async () => {
    const { team, api, receiver, endpoint, secret } = await setUp();
    try {
      const rolled = await api.post(`/api/v1/webhook_endpoints/${endpoint.id}/roll_secret`, { overlap_hours: 24 });
      expect(rolled.status).toBe(201);
      const fresh = rolled.body.data.secret as string;
      expect(fresh).not.toBe(secret);
      expect(rolled.body.data.endpoint.previous_secret_expires_at).not.toBeNull();
      await optOut(api, team.id);
      workers.start({ teamIds: [team.id] });
      await waitFor(
        () => receiver.received.length,
        (n) => n >= 1,
      );
      const [first] = receiver.received;
      expect(first.headers["x-signature-256"]).toBe(`${sign(fresh, first.raw)},${sign(secret, first.raw)}`);

      const again = await api.post(`/api/v1/webhook_endpoints/${endpoint.id}/roll_secret`, { overlap_hours: 0 });
      const newest = again.body.data.secret as string;
      expect(again.body.data.endpoint.previous_secret_expires_at).toBeNull();
      await optOut(api, team.id, false);
      await waitFor(
        () => receiver.received.length,
        (n) => n >= 2,
      );
      const second = receiver.received[1];
      expect(second.headers["x-signature-256"]).toBe(sign(newest, second.raw));

      // The audit trail says the secret changed and never holds it.
      const audit = await (await getDb()).select().from(auditEvents).where(eq(auditEvents.teamId, team.id));
      const actions = audit.map((a) => a.action);
      expect(actions).toEqual(expect.arrayContaining(["webhook_endpoint.created", "webhook_endpoint.secret_rolled"]));
      const text = JSON.stringify(audit);
      for (const s of [secret, fresh, newest]) expect(text).not.toContain(s);
      expect(audit.find((a) => a.action === "webhook_endpoint.created")!.changes).toMatchObject({ secret: { changed: true } });
    } finally {
      await receiver.close();
    }
  });

  it("resends one delivery and every failed one since a time; fails over to disabled after three days of failures", async () => {
    const { team, api, receiver, endpoint, secret } = await setUp();
    try {
      receiver.failNext(500, 500, 500);
      await optOut(api, team.id);
      await optOut(api, team.id);
      const w = workers.start({ teamIds: [team.id], webhookMaxAttempts: 1 });
      const failed = await waitFor(
        () => api.get(`/api/v1/webhook_endpoints/${endpoint.id}/deliveries?status=failed`),
        (res) => res.body.data?.length === 2,
      );
      expect(failed.body.data[0]).toMatchObject({ status: "failed", attempts: 1, last_status_code: 500, last_error: "HTTP 500" });
      const one = await api.post(`/api/v1/webhook_deliveries/${failed.body.data[0].id}/resend`);
      expect(one.status).toBe(202);
      expect(one.body.data).toMatchObject({ status: "pending", attempts: 0 });
      // The third answer is still a 500; after it the receiver answers 200.
      await waitFor(
        () => receiver.received.length,
        (n) => n >= 3,
      );
      const all = await waitFor(
        () => api.get(`/api/v1/webhook_endpoints/${endpoint.id}/deliveries?status=failed`),
        (res) => res.body.data?.length === 2,
      );
      const since = new Date(Date.now() - 60_000).toISOString();
      const many = await api.post(`/api/v1/webhook_endpoints/${endpoint.id}/resend_failed`, { since });
      expect(many.status).toBe(202);
      expect(many.body.data).toEqual({ resent: all.body.data.length });
      await waitFor(
        () => api.get(`/api/v1/webhook_endpoints/${endpoint.id}/deliveries?status=delivered`),
        (res) => res.body.data?.length === 2,
      );
      for (const r of receiver.received) expect(r.headers["x-signature-256"]).toBe(sign(secret, r.raw));
      await w.stop();

      // Failing since four days: the next failure disables it, with the reason shown.
      const db = await getDb();
      await db
        .update(webhookEndpoints)
        .set({ failingSince: sql`now() - interval '4 days'` })
        .where(eq(webhookEndpoints.id, endpoint.id));
      const fresh = await api.get(`/api/v1/webhook_endpoints/${endpoint.id}`);
      expect(fresh.body.data.failing_since).not.toBeNull();
      receiver.failNext(503);
      await optOut(api, team.id);
      workers.start({ teamIds: [team.id], webhookMaxAttempts: 3 });
      const off = await waitFor(
        () => api.get(`/api/v1/webhook_endpoints/${endpoint.id}`),
        (res) => res.body.data?.enabled === false,
      );
      expect(off.body.data).toMatchObject({ enabled: false, disabled_reason: "failing", disabled_at: expect.any(String) });
      const audit = await db
        .select()
        .from(auditEvents)
        .where(and(eq(auditEvents.teamId, team.id), eq(auditEvents.action, "webhook_endpoint.disabled")));
      expect(audit).toHaveLength(1);
      expect(audit[0].actorKind).toBe("system");
      // Disabled: nothing is resent, and a success after enabling clears the streak.
      const refused = await api.post(`/api/v1/webhook_endpoints/${endpoint.id}/resend_failed`, { since });
      expect(refused.status).toBe(409);
      expect(refused.body.message).toBe("El endpoint está desactivado: actívelo antes de reenviar entregas.");
      const on = await api.patch(`/api/v1/webhook_endpoints/${endpoint.id}`, { enabled: true });
      expect(on.body.data).toMatchObject({ enabled: true, disabled_reason: null, failing_since: null });
    } finally {
      await receiver.close();
    }
  });

  it("keeps each team's endpoints and deliveries to itself", async () => {
    const { team, api, receiver, endpoint } = await setUp();
    try {
      await optOut(api, team.id);
      const [delivery] = await deliveriesOf(endpoint.id);
      const other = await createTeam();
      const them = apiClient(server.url, other.token);
      expect((await them.get("/api/v1/webhook_endpoints")).body.data).toEqual([]);
      for (const res of [
        await them.get(`/api/v1/webhook_endpoints/${endpoint.id}`),
        await them.patch(`/api/v1/webhook_endpoints/${endpoint.id}`, { enabled: false }),
        await them.delete(`/api/v1/webhook_endpoints/${endpoint.id}`),
        await them.post(`/api/v1/webhook_endpoints/${endpoint.id}/roll_secret`, { overlap_hours: 1 }),
        await them.get(`/api/v1/webhook_endpoints/${endpoint.id}/deliveries`),
        await them.post(`/api/v1/webhook_endpoints/${endpoint.id}/resend_failed`, { since: new Date().toISOString() }),
      ])
        expect(res.status).toBe(404);
      const resend = await them.post(`/api/v1/webhook_deliveries/${delivery.id}/resend`);
      expect(resend.status).toBe(404);
      expect(resend.body.message).toBe("Entrega de webhook no encontrada.");
      // The other team's events reach none of this team's endpoints.
      await optOut(them, other.id);
      expect(await deliveriesOf(endpoint.id)).toHaveLength(1);
      // Deleting the endpoint takes its log with it.
      expect((await api.delete(`/api/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(200);
      expect(await deliveriesOf(endpoint.id)).toHaveLength(0);
      expect((await api.get(`/api/v1/webhook_endpoints/${endpoint.id}`)).status).toBe(404);
    } finally {
      await receiver.close();
    }
  });

  it("refuses invalid input with the contract's Spanish messages", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const cases: [unknown, string, string][] = [
      [{}, "url", "El campo url es obligatorio."],
      [{ url: "ftp://example.com/x" }, "url", "El campo url debe ser una URL http(s) válida."],
      [{ url: "https://example.com/x", events: [] }, "events", "El campo events debe tener al menos un tipo de evento."],
      [
        { url: "https://example.com/x", events: ["message.deleted"] },
        "events",
        expect.stringContaining("El campo events solo admite: *, message.created"),
      ],
      [{ url: "https://user:pw@example.com/x" }, "url", "El campo url no puede incluir usuario ni contraseña."],
    ];
    for (const [body, field, message] of cases) {
      const res = await api.post("/api/v1/webhook_endpoints", body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[field]?.[0] ?? res.body.message).toEqual(message);
    }
    process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "0";
    try {
      const res = await api.post("/api/v1/webhook_endpoints", { url: "http://127.0.0.1:9/hook" });
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(
        "El campo url no puede apuntar a una dirección local (loopback) (127.0.0.1); solo se admiten direcciones públicas.",
      );
      const metadata = await api.post("/api/v1/webhook_endpoints", { url: "http://169.254.169.254/latest" });
      expect(metadata.status).toBe(422);
    } finally {
      process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
    }
    const created = await api.post("/api/v1/webhook_endpoints", { url: "https://example.com/hook" });
    const id = created.body.data.endpoint.id;
    expect((await api.post(`/api/v1/webhook_endpoints/${id}/roll_secret`, { overlap_hours: 200 })).body.message).toBe(
      "El campo overlap_hours debe ser un número entero entre 0 y 168.",
    );
    expect((await api.patch(`/api/v1/webhook_endpoints/${id}`, {})).body.message).toBe(
      "Indique al menos un campo: url, description, events o enabled.",
    );
    expect((await api.post(`/api/v1/webhook_endpoints/${id}/resend_failed`, { since: "ayer" })).body.message).toBe(
      "El campo since debe ser una fecha y hora ISO 8601 con zona horaria (2026-12-31T23:59:00Z).",
    );
    expect((await api.get("/api/v1/webhook_endpoints/999999999")).body.message).toBe("Endpoint de webhook no encontrado.");
  });
});
