import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asc, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { events } from "@/db/schema";
import { EVENT_TYPES, eventCatalogue, liveEvent, type EventType } from "@/lib/events/catalogue";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { waitFor } from "../helpers/wait";
import { workerPool } from "../helpers/workers";
import { createContact, createLabel, createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber, createSandboxNumber } from "../helpers/delivery-factories";
import { phoneNumberQualityUpdate, postAccountWebhook, templateStatusUpdate } from "../fakes/account-webhooks";

/**
 * Every writer of the event log, TypeScript and SQL, writes exactly the shapes of
 * lib/events/catalogue.ts: each kind of change is made through the API (and the worker, for a
 * send's statuses), then every event row the team got is parsed with its type's schema and must
 * come out unchanged (zod drops keys it does not know, so a key too many fails too).
 */
let server: TestServer;
const workers = workerPool({ pollMs: 50, leaseMs: 2000 });
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await workers.stopAll();
  await server.close();
});

const header = { key: "1", value: "Ana" };
const bodyParams = [
  { key: "1", value: "A-1" },
  { key: "2", value: "lunes" },
];

describe("the event catalogue", () => {
  it("lists each type once, and the stream's union holds every one of them", () => {
    expect(new Set(EVENT_TYPES).size).toBe(EVENT_TYPES.length);
    expect(liveEvent.options.map((o) => o.shape.event.value).sort()).toEqual([...EVENT_TYPES].sort());
  });

  it("parses every event that each kind of change writes, unchanged", async () => {
    const team = await createTeam();
    const number = await createSandboxNumber(team.id);
    const template = await createTemplate(team.id);
    const label = await createLabel(team.id, { bgColor: "#112233", textColor: "#ffffff" });
    const contact = await createContact(team.id);
    // The broadcast's one recipient.
    await createContact(team.id, { labelIds: [label.id] });
    const api = apiClient(server.url, team.token);
    const ok = (res: { status: number; text: string }) => expect(res.status, res.text).toBeLessThan(300);

    // message.created (INBOUND) and the conversation it opens.
    ok(
      await api.post("/api/v1/sandbox/inbound", {
        wa_number: number.number,
        from: `+${contact.customerNumber}`,
        type: "text",
        payload: { text: "Hola" },
      }),
    );
    const list = await api.get(`/api/v1/conversations?contact_id=${contact.id}`);
    const conversationId: number = list.body.data.find((c: { contact: { id: number } }) => c.contact.id === contact.id).id;
    // conversation.read, conversation.updated (status; assignee), note.created.
    ok(await api.post(`/api/v1/conversations/${conversationId}/read`));
    ok(await api.patch(`/api/v1/conversations/${conversationId}`, { status: "resolved" }));
    ok(await api.patch(`/api/v1/conversations/${conversationId}`, { assignee_agent_id: null, status: "open" }));
    ok(await api.post(`/api/v1/conversations/${conversationId}/notes`, { body: "Llamar el lunes" }));
    // contact.labels (add, remove), contact.updated (out and back in).
    ok(await api.post(`/api/v1/contacts/${contact.id}/labels`, { label_ids: [label.id] }));
    ok(await api.put(`/api/v1/contacts/${contact.id}/labels`, { label_ids: [label.id] }));
    ok(await api.patch(`/api/v1/contacts/${contact.id}`, { marketing_opt_out: true }));
    ok(await api.patch(`/api/v1/contacts/${contact.id}`, { marketing_opt_out: false }));
    // message.created (OUTBOUND), then message.status at each step of the sandbox's walk.
    const send = await api.post("/api/v1/message_templates/send", {
      wa_number: number.number,
      destination: contact.customerNumber,
      template_name: template.name,
      header_param: header,
      body_params: bodyParams,
    });
    ok(send);
    const worker = workers.start({ sandboxStepMs: 20, teamIds: [team.id] });
    await waitFor(
      async () => (await api.get(`/api/v1/updates/${send.body.data.update_id}`)).body.data.status,
      (s) => s === "READED",
    );
    await worker.stop();
    // broadcast.updated, and message.status with an error: a scheduled broadcast cancelled.
    const created = await api.post("/api/v1/broadcasts", {
      name: "Catálogo",
      wa_number: number.number,
      template_name: template.name,
      header_param: header,
      body_params: bodyParams,
      audience: { labels_any: [label.id] },
      scheduled_at: new Date(Date.now() + 3_600_000).toISOString(),
    });
    ok(created);
    const broadcastId: number = created.body.data.id;
    await waitFor(
      async () => (await api.get(`/api/v1/broadcasts/${broadcastId}`)).body.data.counts.queued,
      (n) => n === 1,
    );
    ok(await api.post(`/api/v1/broadcasts/${broadcastId}/cancel`));
    // template.updated and number.health: Meta's business-account webhooks for a Cloud API number.
    const cloud = await createCloudNumber(team.id);
    const synced = await createTemplate(team.id, { waNumberId: cloud.id, externalId: `${Date.now()}` });
    const meta = await postAccountWebhook(`${server.url}/api/v1/webhooks/whatsapp`, cloud.secrets.appSecret, cloud.businessAccountId, [
      templateStatusUpdate({ id: synced.externalId!, name: synced.name, language: synced.language }, "REJECTED", "INVALID_FORMAT"),
      phoneNumberQualityUpdate(cloud.number, "FLAGGED", "TIER_1K"),
    ]);
    expect(meta.body.data.updates).toBe(2);

    const db = await getDb();
    const rows = await db.select().from(events).where(eq(events.teamId, team.id)).orderBy(asc(events.id));
    const seen = new Set<string>();
    for (const row of rows) {
      expect(EVENT_TYPES, `event ${row.id}`).toContain(row.type);
      const schema = eventCatalogue[row.type as EventType];
      const parsed = schema.safeParse(row.data);
      expect(parsed.error, `${row.type} ${JSON.stringify(row.data)}`).toBeUndefined();
      expect(parsed.data, `${row.type} has no key the catalogue lacks`).toEqual(row.data);
      seen.add(row.type);
    }
    expect([...seen].sort()).toEqual([...EVENT_TYPES].sort());
    // Both forms of message.status: without an error and with the provider's (here the cancel's).
    const statuses = rows.filter((r) => r.type === "message.status").map((r) => r.data as { status: string; error: unknown });
    expect(statuses.some((s) => s.error === null)).toBe(true);
    expect(statuses.some((s) => s.status === "FAILED" && s.error !== null)).toBe(true);
    // The label event's labels are the API's records, snake_case.
    const labelled = rows.find((r) => r.type === "contact.labels")!.data;
    expect(labelled).toEqual({
      contact_id: contact.id,
      labels: [{ id: label.id, title: label.title, description: label.description, bg_color: "#112233", text_color: "#ffffff" }],
    });
  });
});
