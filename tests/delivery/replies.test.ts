import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createTeam } from "../helpers/factories";
import { createCloudNumber, createSandboxNumber, messageById, waitFor } from "../helpers/delivery-factories";
import { insertMessages } from "../helpers/history-factories";
import { messageByUpdateId, uploadFor } from "../helpers/send-factories";
import { mp4Bytes, pdfBytes, pngBytes } from "../fixtures/media-bytes";
import { startFakeGraph, graphError, type FakeGraph } from "../fakes/graph";
import { demoWebp } from "@/lib/seed/media-bytes";
import { workerPool } from "../helpers/workers";
import { cancelSandboxWalks } from "@/lib/channels/sandbox-channel";
import { getDb } from "@/db/client";
import { conversations, readReceipts } from "@/db/schema";

const SEND = "/api/v1/messages/whatsapp/send";
let server: TestServer;
let graph: FakeGraph;
const workers = workerPool({ pollMs: 100, leaseMs: 2000, backoffBaseMs: 20, backoffCapMs: 80, sandboxStepMs: 100 });

beforeAll(async () => {
  graph = await startFakeGraph();
  process.env.GRAPH_API_BASE_URL = graph.url;
  process.env.GRAPH_API_VERSION = "v21.0";
  process.env.GRAPH_TIMEOUT_MS = "2000";
  server = await startServer();
});
afterAll(async () => {
  await workers.stopAll();
  cancelSandboxWalks();
  await server.close();
  await graph.close();
});

const worker = (teamId: number) => workers.start({ teamIds: [teamId] });

/** A Cloud API number whose customer wrote a minute ago (window open), with that message's wamid. */
async function cloudConversation() {
  const team = await createTeam();
  const number = await createCloudNumber(team.id);
  const contact = await createContact(team.id);
  const wamid = `wamid.CUSTOMER${Date.now()}${Math.floor(Math.random() * 1e6)}`;
  const [inbound] = await insertMessages({ team, number, contact }, [
    { providerMessageId: wamid, createdAt: new Date(Date.now() - 60_000) },
  ]);
  return { team, number, contact, inbound, wamid, api: apiClient(server.url, team.token) };
}

type Cloud = Awaited<ReturnType<typeof cloudConversation>>;
const reply = async (c: Cloud, type: string, payload: unknown, extra: Record<string, unknown> = {}) => {
  const res = await c.api.post(SEND, { wa_number: c.number.number, customer_source: c.contact.customerNumber, type, payload, ...extra });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data.update_id as string;
};

describe("free-form replies through the Cloud API", () => {
  it("sends every type with its documented body, context and callback data", async () => {
    const c = await cloudConversation();
    const png = await uploadFor(c.team.id, pngBytes(), "foto.png");
    const pdf = await uploadFor(c.team.id, pdfBytes(), "factura.pdf");
    const webp = await uploadFor(c.team.id, demoWebp(), "sticker.webp");
    const mp4 = await uploadFor(c.team.id, mp4Bytes(), "clip.mp4");
    const ogg = await uploadFor(c.team.id, oggBytes(), "nota.ogg");
    const ids = {
      video: await reply(c, "video", { media_path: mp4.media_path, caption: "Así se arma" }),
      audio: await reply(c, "audio", { media_path: ogg.media_path }),
      text: await reply(c, "text", { text: "Mire https://example.com", preview_url: true }, { context_update_id: c.inbound.updateId }),
      image: await reply(c, "image", { media_path: png.media_path, caption: "Su pedido" }),
      document: await reply(c, "document", { media_path: pdf.media_path, caption: "Factura", filename: "factura.pdf" }),
      sticker: await reply(c, "sticker", { media_path: webp.media_path }),
      location: await reply(c, "location", { latitude: "4.711", longitude: -74.0721, name: "Tienda", address: "Calle 1" }),
      contacts: await reply(c, "contacts", [
        { name: { formatted_name: "Soporte", first_name: "Soporte" }, phones: [{ phone: "+573000000000", type: "WORK" }] },
      ]),
      quick_reply: await reply(c, "quick_reply", {
        content: { header: "Cita", text: "¿Confirma?" },
        options: [{ title: "Sí", id: "si" }, { title: "No" }],
      }),
      list: await reply(c, "list", {
        title: "Sucursales",
        body: "Elija una",
        button: "Ver",
        items: [
          { title: "Bogotá", rows: [{ id: "n", title: "Norte", description: "Cra 7" }] },
          { title: "Cali", rows: [{ id: "s", title: "Sur" }] },
        ],
      }),
    };
    const w = worker(c.team.id);
    for (const id of Object.values(ids))
      await waitFor(
        () => messageByUpdateId(id),
        (m) => m.status === "SENDED",
      );
    await w.stop();

    const sends = graph.sends(c.number.phoneNumberId);
    expect(sends).toHaveLength(10);
    const byCallback = new Map(sends.map((s) => [s.body.biz_opaque_callback_data, s.body]));
    const base = (id: string) => ({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: c.contact.customerNumber,
      biz_opaque_callback_data: id,
    });
    // Attachments go up to the number's /media first and are sent by id.
    const uploads = graph.requests.filter((r) => r.method === "POST" && r.path === `/v21.0/${c.number.phoneNumberId}/media`);
    expect(uploads).toHaveLength(5);
    expect(uploads.map((u) => u.raw.toString("latin1").match(/name="type"\r\n\r\n([^\r]+)/)?.[1]).sort()).toEqual([
      "application/pdf",
      "audio/ogg",
      "image/png",
      "image/webp",
      "video/mp4",
    ]);
    const mediaId = (body: Record<string, { id?: string }>, type: string) => body[type].id;

    expect(byCallback.get(ids.text)).toEqual({
      ...base(ids.text),
      context: { message_id: c.wamid },
      type: "text",
      text: { preview_url: true, body: "Mire https://example.com" },
    });
    const image = byCallback.get(ids.image);
    expect(image).toEqual({ ...base(ids.image), type: "image", image: { id: expect.stringMatching(/^media\d+$/), caption: "Su pedido" } });
    const document = byCallback.get(ids.document);
    expect(document).toEqual({
      ...base(ids.document),
      type: "document",
      document: { id: expect.any(String), caption: "Factura", filename: "factura.pdf" },
    });
    const sticker = byCallback.get(ids.sticker);
    expect(sticker).toEqual({ ...base(ids.sticker), type: "sticker", sticker: { id: expect.any(String) } });
    const video = byCallback.get(ids.video);
    expect(video).toEqual({ ...base(ids.video), type: "video", video: { id: expect.any(String), caption: "Así se arma" } });
    const audio = byCallback.get(ids.audio);
    expect(audio).toEqual({ ...base(ids.audio), type: "audio", audio: { id: expect.any(String) } });
    const mediaIds = [
      mediaId(image, "image"),
      mediaId(document, "document"),
      mediaId(sticker, "sticker"),
      mediaId(video, "video"),
      mediaId(audio, "audio"),
    ];
    expect(new Set(mediaIds).size).toBe(5);
    expect(byCallback.get(ids.location)).toEqual({
      ...base(ids.location),
      type: "location",
      location: { latitude: 4.711, longitude: -74.0721, name: "Tienda", address: "Calle 1" },
    });
    expect(byCallback.get(ids.contacts)).toEqual({
      ...base(ids.contacts),
      type: "contacts",
      contacts: [{ name: { formatted_name: "Soporte", first_name: "Soporte" }, phones: [{ phone: "+573000000000", type: "WORK" }] }],
    });
    expect(byCallback.get(ids.quick_reply)).toEqual({
      ...base(ids.quick_reply),
      type: "interactive",
      interactive: {
        type: "button",
        header: { type: "text", text: "Cita" },
        body: { text: "¿Confirma?" },
        action: {
          buttons: [
            { type: "reply", reply: { id: "si", title: "Sí" } },
            { type: "reply", reply: { id: "2", title: "No" } },
          ],
        },
      },
    });
    expect(byCallback.get(ids.list)).toEqual({
      ...base(ids.list),
      type: "interactive",
      interactive: {
        type: "list",
        header: { type: "text", text: "Sucursales" },
        body: { text: "Elija una" },
        action: {
          button: "Ver",
          sections: [
            { title: "Bogotá", rows: [{ id: "n", title: "Norte", description: "Cra 7" }] },
            { title: "Cali", rows: [{ id: "s", title: "Sur" }] },
          ],
        },
      },
    });
  });

  it("fails a reply on Meta's 131047 (window closed at Meta) with its reason, without retrying", async () => {
    const c = await cloudConversation();
    const id = await reply(c, "text", { text: "hola" });
    graph.script(
      graphError(
        400,
        131047,
        "Re-engagement message",
        "More than 24 hours have passed since the recipient last replied to the sender number.",
      ),
    );
    const w = worker(c.team.id);
    const failed = await waitFor(
      () => messageByUpdateId(id),
      (m) => m.status === "FAILED",
    );
    await w.stop();
    expect(failed.error).toMatchObject({
      code: 131047,
      title: "Re-engagement message",
      details: "More than 24 hours have passed since the recipient last replied to the sender number.",
    });
    expect(failed.attempts).toBe(1);
    expect(graph.sends(c.number.phoneNumberId)).toHaveLength(1);
    const update = await c.api.get(`/api/v1/updates/${id}`);
    expect(update.body.data).toMatchObject({ status: "FAILED", error: { code: 131047, title: "Re-engagement message" } });
  });
});

describe("free-form replies through the sandbox", () => {
  it("walks a reply QUEUED → SENDED → SENT → DELIVERED → READED", async () => {
    const team = await createTeam();
    const number = await createSandboxNumber(team.id);
    const api = apiClient(server.url, team.token);
    const wrote = await api.post("/api/v1/sandbox/inbound", {
      wa_number: number.number,
      from: "573004445566",
      type: "text",
      payload: { text: "Hola" },
    });
    expect(wrote.status).toBe(200);
    const res = await api.post(SEND, {
      wa_number: number.number,
      customer_source: "573004445566",
      type: "quick_reply",
      payload: { content: { text: "¿Le ayudo?" }, options: [{ title: "Sí" }] },
    });
    expect(res.status).toBe(200);
    const updateId = res.body.data.update_id;
    const w = worker(team.id);
    const final = await waitFor(
      async () => (await api.get(`/api/v1/updates/${updateId}`)).body.data,
      (s) => s.status === "READED",
      10_000,
      50,
    );
    await w.stop();
    expect(final.provider_message_id).toMatch(/^wamid\.sandbox\./);
    expect(final.events.map((e: { status: string }) => e.status)).toEqual(["SENDED", "SENT", "DELIVERED", "READED"]);
  });
});

describe("read receipts (POST /api/v1/conversations/{id}/read)", () => {
  const conversationOf = async (teamId: number) => {
    const db = await getDb();
    const [row] = await db.select().from(conversations).where(eq(conversations.teamId, teamId));
    return row;
  };
  const receiptsOf = async (teamId: number) => {
    const db = await getDb();
    return db.select().from(readReceipts).where(eq(readReceipts.teamId, teamId));
  };

  it("queues the receipt and the worker, not the request, marks the last inbound message read at Meta", async () => {
    const c = await cloudConversation();
    // A newer customer message: the receipt is for the newest one.
    const later = `${c.wamid}-2`;
    await insertMessages(c, [{ providerMessageId: later }]);
    const conv = await conversationOf(c.team.id);
    const res = await c.api.post(`/api/v1/conversations/${conv.id}/read`);
    expect(res.status).toBe(200);
    expect(res.body.data.unread_count).toBe(0);
    // Again: still one receipt.
    expect((await c.api.post(`/api/v1/conversations/${conv.id}/read`)).status).toBe(200);

    // Nothing reached Meta inline (nor later from the request: the worker's reads below are
    // exactly two, the refused one and its retry).
    expect(graph.reads().filter((r) => r.path.includes(`/${c.number.phoneNumberId}/`))).toHaveLength(0);
    const queued = await receiptsOf(c.team.id);
    expect(queued).toHaveLength(1);
    expect(queued[0]).toMatchObject({ status: "PENDING", providerMessageId: later, attempts: 0 });

    graph.script({ status: 503, body: { error: { message: "Service unavailable", code: 2 } } });
    const w = worker(c.team.id);
    const [done] = await waitFor(
      () => receiptsOf(c.team.id),
      (rows) => rows[0]?.status === "DONE",
    );
    await w.stop();
    expect(done.attempts).toBe(2);
    const reads = graph.reads().filter((r) => r.path === `/v21.0/${c.number.phoneNumberId}/messages`);
    expect(reads).toHaveLength(2);
    expect(reads[1].headers.authorization).toBe(`Bearer ${c.number.secrets.accessToken}`);
    expect(reads[1].body).toEqual({ messaging_product: "whatsapp", status: "read", message_id: later });
  });

  it("fails a receipt on a permanent error, and queues none for a sandbox number or another team's conversation", async () => {
    const c = await cloudConversation();
    const conv = await conversationOf(c.team.id);
    graph.script(graphError(400, 100, "Invalid parameter"));
    expect((await c.api.post(`/api/v1/conversations/${conv.id}/read`)).status).toBe(200);
    const w = worker(c.team.id);
    const [failed] = await waitFor(
      () => receiptsOf(c.team.id),
      (rows) => rows[0]?.status === "FAILED",
    );
    await w.stop();
    expect(failed).toMatchObject({ attempts: 1, error: { code: 100, title: "Invalid parameter" } });

    const other = await createTeam();
    const foreign = await apiClient(server.url, other.token).post(`/api/v1/conversations/${conv.id}/read`);
    expect(foreign.status).toBe(404);
    const db = await getDb();
    expect(
      await db
        .select()
        .from(readReceipts)
        .where(and(eq(readReceipts.teamId, other.id))),
    ).toHaveLength(0);

    const sandboxTeam = await createTeam();
    const sandbox = await createSandboxNumber(sandboxTeam.id);
    const contact = await createContact(sandboxTeam.id);
    await insertMessages({ team: sandboxTeam, number: sandbox, contact }, [{ providerMessageId: "wamid.sandbox.in" }]);
    const sandboxConv = await conversationOf(sandboxTeam.id);
    expect((await apiClient(server.url, sandboxTeam.token).post(`/api/v1/conversations/${sandboxConv.id}/read`)).status).toBe(200);
    expect(await receiptsOf(sandboxTeam.id)).toHaveLength(0);
    expect((await messageById(c.inbound.id)).status).toBe("RECEIVED");
  });
});

/** An OGG Opus header (what WhatsApp voice notes are), enough for content sniffing. */
function oggBytes(): Uint8Array {
  const out = new Uint8Array(96);
  out.set(new TextEncoder().encode("OggS"), 0);
  out.set(new TextEncoder().encode("OpusHead"), 28);
  return out;
}
