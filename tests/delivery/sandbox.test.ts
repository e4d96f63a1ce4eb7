import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createBot, createCampaign, createContact, createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber, createSandboxNumber, waitFor } from "../helpers/delivery-factories";
import { workerPool } from "../helpers/workers";
import { cancelSandboxWalks } from "@/lib/channels/sandbox-channel";
import { getDb } from "@/db/client";
import { messages } from "@/db/schema";
import { eq } from "drizzle-orm";

let server: TestServer;
const workers = workerPool({ pollMs: 100 });
beforeAll(async () => {
  server = await startServer();
});
afterAll(async () => {
  await workers.stopAll();
  cancelSandboxWalks();
  await server.close();
});

const today = () => new Date().toISOString().slice(0, 10);

describe("sandbox channel", () => {
  it("a template sent through the API walks QUEUED → SENDED → SENT → DELIVERED → READED", async () => {
    const team = await createTeam();
    const number = await createSandboxNumber(team.id);
    const contact = await createContact(team.id);
    const template = await createTemplate(team.id);
    const api = apiClient(server.url, team.token);
    const send = await api.post("/api/v1/message_templates/send", {
      wa_number: number.number,
      destination: contact.customerNumber,
      template_name: template.name,
      header_param: { key: "1", value: "Ana" },
      body_params: [
        { key: "1", value: "A-1" },
        { key: "2", value: "lunes" },
      ],
    });
    expect(send.status).toBe(200);
    const updateId = send.body.data.update_id;
    expect((await api.get(`/api/v1/updates/${updateId}`)).body.data.status).toBe("QUEUED");

    const w = workers.start({ sandboxStepMs: 100, teamIds: [team.id] });
    const final = await waitFor(
      async () => (await api.get(`/api/v1/updates/${updateId}`)).body.data,
      (s) => s.status === "READED",
      10_000,
      50,
    );
    await w.stop();
    expect(final.provider_message_id).toMatch(/^wamid\.sandbox\./);
    expect(final.events.map((e: any) => [e.status, e.applied])).toEqual([
      ["SENDED", true],
      ["SENT", true],
      ["DELIVERED", true],
      ["READED", true],
    ]);
  });

  it("an injected customer reply is stored, routed and shown in the conversation history", async () => {
    const team = await createTeam();
    const number = await createSandboxNumber(team.id);
    const campaign = await createCampaign(team.id);
    await createBot(team.id, { isDefault: true });
    const contact = await createContact(team.id);
    const template = await createTemplate(team.id);
    const api = apiClient(server.url, team.token);
    const send = await api.post("/api/v1/message_templates/send", {
      wa_number: number.number,
      destination: contact.customerNumber,
      template_name: template.name,
      header_param: { key: "1", value: "Ana" },
      body_params: [
        { key: "1", value: "A-1" },
        { key: "2", value: "lunes" },
      ],
      campaign_id: campaign.id,
    });
    const sentId = send.body.data.update_id;
    const w = workers.start({ sandboxStepMs: 50, teamIds: [team.id] });
    await waitFor(
      async () => (await api.get(`/api/v1/updates/${sentId}`)).body.data.status,
      (s) => s === "READED",
    );
    await w.stop();

    const reply = await api.post("/api/v1/sandbox/inbound", {
      wa_number: number.number,
      from: `+${contact.customerNumber}`,
      type: "button",
      payload: { text: "Gracias", payload: "THANKS" },
      profile_name: "Ana",
      context_update_id: sentId,
    });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      message: "Mensaje entrante simulado correctamente.",
      data: {
        update_id: expect.any(String),
        reply_to_update_id: sentId,
        routed_to: { kind: "campaign", id: campaign.id, reason: "context:campaign_id" },
      },
    });

    const history = await api.get(
      `/api/v1/messages/whatsapp/history?customer_source=${contact.customerNumber}&wa_number=${number.number}&from_date=${today()}&order=ASC`,
    );
    expect(history.status).toBe(200);
    expect(history.body.data.map((m: any) => [m.direction, m.type, m.status])).toEqual([
      ["OUTBOUND", "template", "READED"],
      ["INBOUND", "button", "RECEIVED"],
    ]);
    expect(history.body.data[1]).toMatchObject({
      sender: "CUSTOMER",
      payload: { text: "Gracias", payload: "THANKS" },
      customer_number: contact.customerNumber,
    });
    const detail = await api.get(`/api/v1/updates/${reply.body.data.update_id}`);
    expect(detail.body.data.routed_to).toEqual(reply.body.data.routed_to);

    // Without context the latest template is the one answered.
    const plain = await api.post("/api/v1/sandbox/inbound", {
      wa_number: number.number,
      from: contact.customerNumber,
      type: "text",
      payload: { text: "Hola" },
    });
    expect(plain.body.data).toMatchObject({
      reply_to_update_id: sentId,
      routed_to: { kind: "campaign", id: campaign.id, reason: "latest_template:campaign_id" },
    });
  });

  it("POST /api/v1/sandbox/inbound: 401 without a token, another team's number answers as unregistered, Cloud API numbers refused", async () => {
    const team = await createTeam();
    const number = await createSandboxNumber(team.id);
    const cloud = await createCloudNumber(team.id);
    const other = await createTeam();
    const body = { wa_number: number.number, from: "573001234567", type: "text", payload: { text: "hola" } };
    const anon = await apiClient(server.url).post("/api/v1/sandbox/inbound", body);
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: "Unauthenticated." });
    const foreign = await apiClient(server.url, other.token).post("/api/v1/sandbox/inbound", body);
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors.wa_number).toEqual(["El número de WhatsApp no está registrado."]);
    const onCloud = await apiClient(server.url, team.token).post("/api/v1/sandbox/inbound", { ...body, wa_number: cloud.number });
    expect(onCloud.status).toBe(422);
    expect(onCloud.body.message).toBe("Solo se pueden simular mensajes entrantes en números sandbox.");
    const badContext = await apiClient(server.url, team.token).post("/api/v1/sandbox/inbound", {
      ...body,
      context_update_id: crypto.randomUUID(),
    });
    expect(badContext.status).toBe(422);
    expect(badContext.body.message).toBe("El mensaje indicado en context_update_id no existe.");
    const db = await getDb();
    expect(await db.select().from(messages).where(eq(messages.waNumberId, number.id))).toHaveLength(0);
  });
});

describe("GET /api/v1/updates/{update_id}", () => {
  it("answers 401 without a token and 404 for another team's or an unknown update", async () => {
    const team = await createTeam();
    const number = await createSandboxNumber(team.id);
    const api = apiClient(server.url, team.token);
    const injected = await api.post("/api/v1/sandbox/inbound", {
      wa_number: number.number,
      from: "573009998877",
      type: "text",
      payload: { text: "hola" },
    });
    const id = injected.body.data.update_id;
    expect((await api.get(`/api/v1/updates/${id}`)).status).toBe(200);
    expect((await apiClient(server.url).get(`/api/v1/updates/${id}`)).status).toBe(401);
    const other = await createTeam();
    const foreign = await apiClient(server.url, other.token).get(`/api/v1/updates/${id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "La actualización no existe." });
    expect((await api.get(`/api/v1/updates/${crypto.randomUUID()}`)).status).toBe(404);
    expect((await api.get(`/api/v1/updates/not-a-uuid`)).status).toBe(404);
  });
});

describe("GET /api/v1/webhook_deliveries", () => {
  it("lists only the caller's deliveries, paginated; 401 without a token", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const number = await createSandboxNumber(team.id);
    await createBot(team.id, { isDefault: true, webhookUrl: "http://127.0.0.1:9/hook", webhookSecret: "x" });
    const api = apiClient(server.url, team.token);
    for (const text of ["uno", "dos", "tres"]) {
      await api.post("/api/v1/sandbox/inbound", { wa_number: number.number, from: "573005550000", type: "text", payload: { text } });
    }
    const page = await api.get("/api/v1/webhook_deliveries?per_page=2&page=1");
    expect(page.status).toBe(200);
    expect(page.body.pagination).toEqual({ total_items: 3, items_per_page: 2, current_page: 1, total_pages: 2 });
    expect(page.body.data[0]).toMatchObject({ event: "message.received", status: "pending", target_kind: "bot", attempts: 0 });
    expect(page.body.data[0].payload.data.message.payload).toEqual({ text: "tres" });
    const foreign = await apiClient(server.url, other.token).get("/api/v1/webhook_deliveries");
    expect(foreign.body.data).toEqual([]);
    expect((await apiClient(server.url).get("/api/v1/webhook_deliveries")).status).toBe(401);
    const bad = await api.get("/api/v1/webhook_deliveries?per_page=abc");
    expect(bad.status).toBe(422);
  });
});
