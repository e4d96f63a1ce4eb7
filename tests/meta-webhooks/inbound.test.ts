import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createBot, createCampaign, createContact, createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber, createQueuedMessage, messageById, postWebhook, sign, waitFor } from "../helpers/delivery-factories";
import { startFakeGraph, type FakeGraph } from "../fakes/graph";
import { startReceiver } from "../fakes/receiver";
import { INBOUND_TYPES, change, envelope, inboundMessage, statusUpdate, wamid } from "../fixtures/webhooks";
import { getDb } from "@/db/client";
import { contacts, messages, parkedStatuses } from "@/db/schema";
import { applyParkedStatuses } from "@/lib/delivery/parked-statuses";
import { createWorker } from "@/lib/delivery/worker";

let server: TestServer;
let graph: FakeGraph;
beforeAll(async () => {
  graph = await startFakeGraph();
  process.env.GRAPH_API_BASE_URL = graph.url;
  // Bot and campaign events go to tests/fakes/receiver.ts on 127.0.0.1.
  process.env.ALLOW_PRIVATE_WEBHOOK_URLS = "1";
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  await graph.close();
});

async function inboundOf(waNumberId: number) {
  const db = await getDb();
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.waNumberId, waNumberId), eq(messages.direction, "INBOUND")))
    .orderBy(messages.id);
}

async function contactByNumber(teamId: number, number: string) {
  const db = await getDb();
  const [row] = await db
    .select()
    .from(contacts)
    .where(and(eq(contacts.teamId, teamId), eq(contacts.customerNumber, number)));
  return row;
}

const customer = () => `57300${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;

describe("GET /api/v1/webhooks/whatsapp (verify handshake)", () => {
  it("echoes hub.challenge as text/plain for a number's verify token or WHATSAPP_VERIFY_TOKEN, 403 otherwise", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const q = (token: string, mode = "subscribe") =>
      fetch(
        `${server.url}/api/v1/webhooks/whatsapp?hub.mode=${mode}&hub.verify_token=${encodeURIComponent(token)}&hub.challenge=1158201444`,
      );
    const ok = await q(number.secrets.verifyToken);
    expect(ok.status).toBe(200);
    expect(ok.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(await ok.text()).toBe("1158201444");
    process.env.WHATSAPP_VERIFY_TOKEN = "deployment-wide-token";
    try {
      expect((await q("deployment-wide-token")).status).toBe(200);
    } finally {
      delete process.env.WHATSAPP_VERIFY_TOKEN;
    }
    expect((await q("wrong-token")).status).toBe(403);
    expect((await q(number.secrets.verifyToken, "unsubscribe")).status).toBe(403);
  });
});

describe("POST /api/v1/webhooks/whatsapp", () => {
  it("normalizes every inbound type to its 2.5 payload, stores each once and refreshes the contact", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const from = customer();
    const newWaId = customer();
    // The number change comes last: later messages would arrive from the new wa_id.
    const order = [...INBOUND_TYPES.filter((t) => t !== "system"), "system" as const];
    const batch = order.map((t) => inboundMessage(t, { from, newWaId }));
    const res = await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { contacts: [{ wa_id: from, name: "Ana Pérez" }], messages: batch })),
      number.secrets.appSecret,
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ messages: INBOUND_TYPES.length, statuses: 0, updates: 0, ignored: 0 });

    const stored = await inboundOf(number.id);
    const byType = (t: string) => stored.filter((m) => m.type === t);
    expect(stored).toHaveLength(INBOUND_TYPES.length);
    expect(stored.every((m) => m.status === "RECEIVED" && m.sender === "CUSTOMER")).toBe(true);
    expect(byType("text")[0].payload).toEqual({ text: "Hola, ¿llega hoy?" });
    expect(byType("text")[1].payload).toMatchObject({
      text: "Quiero más información",
      referral: {
        source_type: "ad",
        headline: "Oferta de verano",
        media_type: "image",
        ctwa_clid: expect.any(String),
        source_url: "https://fb.me/abc123",
      },
    });
    const image = byType("image")[0];
    expect(image.payload).toEqual({
      url: `http://app.test/api/v1/updates/${image.updateId}/media`,
      contentType: "image/jpeg",
      id: "MEDIA_IMAGE_1",
      sha256: "IMGSHA",
      caption: "Mi recibo",
    });
    expect(byType("audio")[0].payload).toEqual({
      url: expect.stringContaining("/media"),
      contentType: "audio/ogg; codecs=opus",
      id: "MEDIA_AUDIO_1",
    });
    expect(byType("video")[0].payload).toMatchObject({ caption: "Video", contentType: "video/mp4", filename: "", sha256: "VIDSHA" });
    expect(byType("document")[0].payload).toMatchObject({ caption: "Factura", filename: "factura.pdf", contentType: "application/pdf" });
    expect(byType("sticker")[0].payload).toMatchObject({ animated: false, contentType: "image/webp", id: "MEDIA_STICKER_1" });
    expect(byType("location")[0].payload).toEqual({
      latitude: "4.60971",
      longitude: "-74.08175",
      name: "Oficina",
      address: "Cra 7 # 32-16, Bogotá",
    });
    expect((byType("contacts")[0].payload as any[])[0]).toMatchObject({
      name: { formatted_name: "Ana Pérez" },
      phones: [{ wa_id: "573001112222" }],
    });
    expect(byType("button")[0].payload).toEqual({ text: "Gracias", payload: "THANKS" });
    expect(byType("list_reply")[0].payload).toEqual({ id: "opt_2", title: "Envío express", description: "Llega mañana" });
    expect(byType("button_reply")[0].payload).toEqual({ id: "yes", title: "Sí" });
    expect(byType("call_permission_reply")[0].payload).toEqual({
      response: "accept",
      is_permanent: false,
      expiration_timestamp: "1763900000",
      response_source: "user_action",
    });
    expect(byType("system")[0].payload).toEqual({
      body: `Ana changed from ${from} to ${newWaId}`,
      new_wa_id: newWaId,
      type: "user_changed_number",
    });
    expect(byType("unsupported")[0].payload).toEqual({
      code: 131051,
      title: "Message type unknown",
      details: "Message type is currently not supported.",
    });
    expect(byType("unknown")[0].payload).toMatchObject({
      code: 131051,
      title: "Message type unknown",
      message: "Message type unknown",
      error_data: { details: "Message type is not currently supported" },
    });

    // The contact was created with the profile name and wa_id, then moved by user_changed_number.
    expect(await contactByNumber(team.id, from)).toBeUndefined();
    const moved = await contactByNumber(team.id, newWaId);
    expect(moved).toMatchObject({ name: "Ana Pérez", customerId: newWaId });
    expect(stored.every((m) => m.contactId === moved.id)).toBe(true);
  });

  it("stores nothing and answers 401 for a forged, missing or foreign-app signature", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const body = envelope(
      change(number.phoneNumberId, { contacts: [{ wa_id: customer() }], messages: [inboundMessage("text", { from: customer() })] }),
    );
    expect((await postWebhook(server.url, body, "not-the-app-secret")).status).toBe(401);
    expect((await postWebhook(server.url, body, null)).status).toBe(401);
    expect((await postWebhook(server.url, body, null, "sha256=deadbeef")).status).toBe(401);
    // Signed over different bytes than those sent.
    const sig = sign(number.secrets.appSecret, JSON.stringify(body) + " ");
    const forged = await postWebhook(server.url, body, null, sig);
    expect(forged.status).toBe(401);
    expect(forged.body).toEqual({ message: "Firma de webhook inválida." });
    expect(await inboundOf(number.id)).toHaveLength(0);

    // Another tenant's genuine app secret cannot write into this number.
    const other = await createCloudNumber((await createTeam()).id);
    const crossed = await postWebhook(server.url, body, other.secrets.appSecret);
    expect(crossed.status).toBe(200);
    expect(crossed.body.data).toEqual({ messages: 0, statuses: 0, updates: 0, ignored: 1 });
    expect(await inboundOf(number.id)).toHaveLength(0);
  });

  it("accepts WHATSAPP_APP_SECRET for numbers without an app secret of their own", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id, { appSecret: "" });
    process.env.WHATSAPP_APP_SECRET = `env-secret-${Date.now()}`;
    try {
      const body = envelope(change(number.phoneNumberId, { messages: [inboundMessage("text", { from: customer() })] }));
      const res = await postWebhook(server.url, body, process.env.WHATSAPP_APP_SECRET);
      expect(res.status).toBe(200);
      expect(res.body.data.messages).toBe(1);
    } finally {
      delete process.env.WHATSAPP_APP_SECRET;
    }
  });

  it("a replayed webhook stores nothing new", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const from = customer();
    const body = envelope(
      change(number.phoneNumberId, {
        contacts: [{ wa_id: from }],
        messages: [inboundMessage("text", { from }), inboundMessage("button", { from })],
      }),
    );
    expect((await postWebhook(server.url, body, number.secrets.appSecret)).body.data.messages).toBe(2);
    const again = await postWebhook(server.url, body, number.secrets.appSecret);
    expect(again.status).toBe(200);
    expect(again.body.data.messages).toBe(0);
    expect(await inboundOf(number.id)).toHaveLength(2);
  });

  it("handles every entry and change of a batch: 50 items store 50", async () => {
    const team = await createTeam();
    const a = await createCloudNumber(team.id, { appSecret: "shared-app-secret-50" });
    const b = await createCloudNumber(team.id, { appSecret: "shared-app-secret-50" });
    const msgs = (n: number) => Array.from({ length: n }, () => inboundMessage("text", { from: customer() }));
    const second = change(a.phoneNumberId, { messages: msgs(15) });
    second.changes.push(change(b.phoneNumberId, { messages: msgs(15) }).changes[0]);
    const res = await postWebhook(server.url, envelope(change(a.phoneNumberId, { messages: msgs(20) }), second), "shared-app-secret-50");
    expect(res.status).toBe(200);
    expect(res.body.data.messages).toBe(50);
    expect((await inboundOf(a.id)).length + (await inboundOf(b.id)).length).toBe(50);
  });

  it("keeps a failed status's error and records statuses for unknown wamids as nothing", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const contact = await createContact(team.id);
    const template = await createTemplate(team.id);
    const msg = await createQueuedMessage({ teamId: team.id, waNumberId: number.id, contact, template });
    const db = await getDb();
    await db.update(messages).set({ status: "SENDED", providerMessageId: "wamid.KNOWN1" }).where(eq(messages.id, msg.id));
    const res = await postWebhook(
      server.url,
      envelope(
        change(number.phoneNumberId, {
          statuses: [
            statusUpdate("failed", { id: "wamid.KNOWN1", to: contact.customerNumber! }),
            statusUpdate("read", { id: wamid(), to: "1", timestamp: Math.floor(Date.now() / 1000) - 3600 }),
          ],
        }),
      ),
      number.secrets.appSecret,
    );
    expect(res.body.data.statuses).toBe(1);
    const failed = await messageById(msg.id);
    expect(failed.status).toBe("FAILED");
    expect(failed.error).toEqual({ code: 131026, title: "Message undeliverable", details: "Message Undeliverable." });
  });
});

describe("a status that outruns the worker's commit", () => {
  it("is parked durably before its 200 and applied once the commit lands, so an early 'sent' is not lost", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const contact = await createContact(team.id);
    const template = await createTemplate(team.id);
    const msg = await createQueuedMessage({ teamId: team.id, waNumberId: number.id, contact, template });
    const early = wamid();
    const res = await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { statuses: [statusUpdate("sent", { id: early, to: contact.customerNumber! })] })),
      number.secrets.appSecret,
    );
    expect(res.status).toBe(200);
    expect(res.body.data.statuses).toBe(0);
    const db = await getDb();
    const parked = await db.select().from(parkedStatuses).where(eq(parkedStatuses.providerMessageId, early));
    expect(parked.map((p) => [p.reason, p.status])).toEqual([["unknown", "sent"]]);
    // The worker commits the accepted send only now; the chore (lib/chores/schedule.ts) applies the parked status.
    await db.update(messages).set({ status: "SENDED", providerMessageId: early }).where(eq(messages.id, msg.id));
    const sent = await waitFor(
      async () => (await applyParkedStatuses([team.id]), messageById(msg.id)),
      (m) => m.status === "SENT",
      8000,
      100,
    );
    expect(sent.status).toBe("SENT");
    expect(await db.select().from(parkedStatuses).where(eq(parkedStatuses.providerMessageId, early))).toEqual([]);
  });
});

describe("reply routing (ruling 8)", () => {
  it("attributes replies by context.id, else the latest template, else the default bot, and delivers signed message.received events", async () => {
    const receiver = await startReceiver();
    try {
      const team = await createTeam();
      const number = await createCloudNumber(team.id);
      const campaign = await createCampaign(team.id, { webhookUrl: receiver.url, webhookSecret: "camp-secret" });
      const defaultBot = await createBot(team.id, { isDefault: true });
      const otherBot = await createBot(team.id);
      const contact = await createContact(team.id);
      const template = await createTemplate(team.id);
      const db = await getDb();
      const older = await createQueuedMessage({ teamId: team.id, waNumberId: number.id, contact, template, campaignId: campaign.id });
      const newer = await createQueuedMessage({
        teamId: team.id,
        waNumberId: number.id,
        contact,
        template,
        responseHandler: "CHATBOT",
        botId: otherBot.id,
      });
      await db.update(messages).set({ status: "DELIVERED", providerMessageId: "wamid.OLDER" }).where(eq(messages.id, older.id));
      await db.update(messages).set({ status: "DELIVERED", providerMessageId: "wamid.NEWER" }).where(eq(messages.id, newer.id));
      const from = contact.customerNumber!;
      const quoted = inboundMessage("button", { from, contextId: "wamid.OLDER" });
      const plain = inboundMessage("text", { from });
      const res = await postWebhook(
        server.url,
        envelope(change(number.phoneNumberId, { contacts: [{ wa_id: from }], messages: [quoted, plain] })),
        number.secrets.appSecret,
      );
      expect(res.body.data.messages).toBe(2);
      const [q, p] = await inboundOf(number.id);
      expect(q.replyToMessageId).toBe(older.id);
      expect(q.routedTo).toEqual({ kind: "campaign", id: campaign.id, reason: "context:campaign_id" });
      expect(p.replyToMessageId).toBe(newer.id);
      expect(p.routedTo).toEqual({ kind: "bot", id: otherBot.id, reason: "latest_template:response_handler_chatbot" });

      // A customer never sent a template goes to the team's default bot.
      const stranger = customer();
      await postWebhook(
        server.url,
        envelope(change(number.phoneNumberId, { messages: [inboundMessage("text", { from: stranger })] })),
        number.secrets.appSecret,
      );
      const [s] = (await inboundOf(number.id)).filter((m) => m.customerNumber === stranger);
      expect(s.routedTo).toEqual({ kind: "bot", id: defaultBot.id, reason: "none:default_bot" });

      // The decision is visible through the API.
      const update = await apiClient(server.url, team.token).get(`/api/v1/updates/${q.updateId}`);
      expect(update.body.data).toMatchObject({
        routed_to: q.routedTo,
        reply_to_update_id: older.updateId,
        type: "button",
        status: "RECEIVED",
      });

      // Only the campaign has a URL: exactly one event, signed, delivered by the worker.
      const w = createWorker({ pollMs: 100, teamIds: [team.id] });
      w.start();
      await waitFor(
        () => receiver.received.length,
        (n) => n >= 1,
      );
      await w.stop();
      expect(receiver.received).toHaveLength(1);
      const [event] = receiver.received;
      expect(event.headers["x-signature-256"]).toBe(sign("camp-secret", event.raw));
      expect(event.body).toMatchObject({
        event: "message.received",
        data: {
          update_id: q.updateId,
          reply_to_update_id: older.updateId,
          routed_to: q.routedTo,
          message: { type: "button", payload: { text: "Gracias", payload: "THANKS" } },
        },
      });
      const list = await apiClient(server.url, team.token).get("/api/v1/webhook_deliveries");
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(1);
      expect(list.body.data[0]).toMatchObject({
        event: "message.received",
        status: "delivered",
        attempts: 1,
        target_kind: "campaign",
        target_id: campaign.id,
        last_status_code: 200,
      });
    } finally {
      await receiver.close();
    }
  });
});

describe("GET /api/v1/updates/{update_id}/media", () => {
  it("streams an inbound Cloud API attachment from Graph for the owning team only", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    graph.addMedia("MEDIA_IMAGE_1", Buffer.from("jpeg-bytes"), "image/jpeg");
    await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { messages: [inboundMessage("image", { from: customer() })] })),
      number.secrets.appSecret,
    );
    const [image] = await inboundOf(number.id);
    const res = await fetch(`${server.url}/api/v1/updates/${image.updateId}/media`, { headers: { authorization: `Bearer ${team.token}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/jpeg");
    expect(await res.text()).toBe("jpeg-bytes");
    const other = await createTeam();
    const foreign = await fetch(`${server.url}/api/v1/updates/${image.updateId}/media`, {
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(foreign.status).toBe(404);
    expect((await fetch(`${server.url}/api/v1/updates/${image.updateId}/media`)).status).toBe(401);
  });
});
