import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createNumber, createTeam } from "../helpers/factories";
import { createConversation, insertMessages } from "../helpers/history-factories";
import { agentSession, countMessages, messageByUpdateId, uploadFor } from "../helpers/send-factories";
import { jpegBytes, mp4Bytes, pdfBytes, pngBytes } from "../fixtures/media-bytes";
import { demoWebp } from "@/lib/seed/media-bytes";
import { WA_NUMBER_NOT_REGISTERED } from "@/lib/numbers/service";
import { CONTEXT_NOT_FOUND, WINDOW_CLOSED } from "@/lib/messages/reply-service";
import * as M from "@/lib/messages/reply-schemas";
import { MEDIA_MISSING, mediaNotOwned } from "@/lib/messages/send-media";

const SEND = "/api/v1/messages/whatsapp/send";
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Conv = Awaited<ReturnType<typeof createConversation>>;

/** A conversation whose customer wrote `agoMs` ago (inside the window by default). */
async function openConversation(agoMs = 60_000) {
  const conv = await createConversation();
  const [inbound] = await insertMessages(conv, [
    { createdAt: new Date(Date.now() - agoMs), providerMessageId: `wamid.IN${Date.now()}${Math.random()}` },
  ]);
  return { ...conv, inbound };
}

const body = (c: Conv, type: string, payload: unknown, extra: Record<string, unknown> = {}) => ({
  wa_number: c.number.number,
  customer_source: c.contact.customerNumber,
  type,
  payload,
  ...extra,
});

const allErrors = (res: { body: { errors?: Record<string, string[]> } }) => Object.values(res.body.errors ?? {}).flat();

describe("POST /api/v1/messages/{channel}/send — the 24-hour window", () => {
  it("queues a text reply inside the window, answered as 4.1, stored as 2.5 with SYSTEM attribution", async () => {
    const c = await openConversation();
    const res = await apiClient(server.url, c.team.token).post(
      SEND,
      body(c, "text", { text: "Hola, ¿en qué le ayudo?", preview_url: true }),
    );
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: "Mensaje en cola para su envío.", data: { update_id: expect.any(String) } });
    const row = await messageByUpdateId(res.body.data.update_id);
    expect(row).toMatchObject({
      teamId: c.team.id,
      waNumberId: c.number.id,
      contactId: c.contact.id,
      direction: "OUTBOUND",
      type: "text",
      status: "QUEUED",
      sender: "SYSTEM",
      agentId: 0,
      agentName: null,
      payload: { text: "Hola, ¿en qué le ayudo?" },
      sendParams: { preview_url: true },
      customerNumber: c.contact.customerNumber,
    });
    expect(row.nextAttemptAt).toBeInstanceOf(Date);
  });

  it("finds the customer by customer_id too", async () => {
    const c = await openConversation();
    const res = await apiClient(server.url, c.team.token).post(
      SEND,
      body(c, "text", { text: "hola" }, { customer_source: c.contact.customerId }),
    );
    expect(res.status).toBe(200);
    expect((await messageByUpdateId(res.body.data.update_id)).contactId).toBe(c.contact.id);
  });

  it("refuses when the customer's last message is older than 24 hours", async () => {
    const c = await openConversation(24 * 3600_000 + 60_000);
    const before = await countMessages(c.team.id);
    const res = await apiClient(server.url, c.team.token).post(SEND, body(c, "text", { text: "hola" }));
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: WINDOW_CLOSED, errors: { customer_source: [WINDOW_CLOSED] } });
    expect(WINDOW_CLOSED).toBe("La ventana de 24 horas para responder a este cliente está cerrada: envíe una plantilla.");
    expect(await countMessages(c.team.id)).toBe(before);
  });

  it("refuses a customer who never wrote (only outbound messages, or no contact at all)", async () => {
    const c = await createConversation();
    await insertMessages(c, [{ direction: "OUTBOUND", sender: "SYSTEM", status: "READED", type: "text" }]);
    const api = apiClient(server.url, c.team.token);
    const outboundOnly = await api.post(SEND, body(c, "text", { text: "hola" }));
    expect(outboundOnly.status).toBe(422);
    expect(outboundOnly.body.errors).toEqual({ customer_source: [WINDOW_CLOSED] });
    const unknown = await api.post(SEND, body(c, "text", { text: "hola" }, { customer_source: "573000000001" }));
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ customer_source: [WINDOW_CLOSED] });
  });

  it("judges the window per company number: a message to another number of the team does not open it", async () => {
    const c = await openConversation();
    const other = await createNumber(c.team.id);
    const res = await apiClient(server.url, c.team.token).post(SEND, body(c, "text", { text: "hola" }, { wa_number: other.number }));
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ customer_source: [WINDOW_CLOSED] });
  });

  it("opens the window through the sandbox inbound route", async () => {
    const team = await createTeam();
    const number = await createNumber(team.id);
    const api = apiClient(server.url, team.token);
    const wrote = await api.post("/api/v1/sandbox/inbound", {
      wa_number: number.number,
      from: "573001112233",
      type: "text",
      payload: { text: "Hola" },
    });
    expect(wrote.status).toBe(200);
    const res = await api.post(SEND, {
      wa_number: number.number,
      customer_source: "+57 300 111 2233",
      type: "text",
      payload: { text: "¡Hola!" },
    });
    expect(res.status).toBe(200);
  });

  it("answers 404 for an unknown channel and 422 for an unregistered number", async () => {
    const c = await openConversation();
    const api = apiClient(server.url, c.team.token);
    const channel = await api.post("/api/v1/messages/telegram/send", body(c, "text", { text: "hola" }));
    expect(channel.status).toBe(404);
    const number = await api.post(SEND, body(c, "text", { text: "hola" }, { wa_number: "573999999999" }));
    expect(number.status).toBe(422);
    expect(number.body.errors).toEqual({ wa_number: [WA_NUMBER_NOT_REGISTERED] });
  });
});

describe("POST /api/v1/messages/{channel}/send — attribution", () => {
  it("stores AGENT with the agent's id and name from a session, and the history shows it", async () => {
    const c = await openConversation();
    const session = await agentSession(c.team.id);
    const api = apiClient(server.url);
    const res = await api.post(SEND, body(c, "text", { text: "Soy Ana, la atiendo yo." }), session.headers);
    expect(res.status).toBe(200);
    const system = await apiClient(server.url, c.team.token).post(SEND, body(c, "text", { text: "Mensaje automático" }));
    expect(system.status).toBe(200);

    const from = new Date(Date.now() - 2 * 86400_000).toISOString().slice(0, 10);
    const history = await apiClient(server.url, c.team.token).get(
      `/api/v1/messages/whatsapp/history?customer_source=${c.contact.customerNumber}&wa_number=${c.number.number}&from_date=${from}&order=ASC&include=update_id`,
    );
    expect(history.status).toBe(200);
    const byUpdate = new Map(history.body.data.map((r: { update_id: string }) => [r.update_id, r]));
    expect(byUpdate.get(res.body.data.update_id)).toMatchObject({
      sender: "AGENT",
      agent_id: session.agent.id,
      agent_name: session.agent.name,
      direction: "OUTBOUND",
      type: "text",
      status: "QUEUED",
      payload: { text: "Soy Ana, la atiendo yo." },
    });
    expect(byUpdate.get(system.body.data.update_id)).toMatchObject({ sender: "SYSTEM", agent_id: 0, agent_name: null });
  });
});

describe("POST /api/v1/messages/{channel}/send — every type", () => {
  it("stores media replies in their 2.5 shape with the url the history serves", async () => {
    const c = await openConversation();
    const api = apiClient(server.url, c.team.token);
    const png = await uploadFor(c.team.id, pngBytes(), "foto.png");
    const mp4 = await uploadFor(c.team.id, mp4Bytes(), "clip.mp4");
    const pdf = await uploadFor(c.team.id, pdfBytes(), "factura.pdf");
    const webp = await uploadFor(c.team.id, demoWebp(), "sticker.webp");
    const ogg = await uploadFor(c.team.id, oggBytes(), "nota.ogg");
    const url = (p: string) => expect.stringMatching(new RegExp(`/api/v1/media/${p.replace(/\./g, "\\.")}$`));
    const cases: [string, unknown, unknown][] = [
      [
        "image",
        { media_path: png.media_path, caption: "Su pedido" },
        { caption: "Su pedido", url: url(png.media_path), contentType: "image/png", sha256: png.sha256 },
      ],
      [
        "video",
        { media_path: mp4.media_path },
        { caption: null, url: url(mp4.media_path), contentType: "video/mp4", sha256: mp4.sha256, filename: null },
      ],
      [
        "document",
        { media_path: pdf.media_path, caption: "Factura", filename: "factura-noviembre.pdf" },
        {
          caption: "Factura",
          url: url(pdf.media_path),
          contentType: "application/pdf",
          sha256: pdf.sha256,
          filename: "factura-noviembre.pdf",
        },
      ],
      ["audio", { media_path: ogg.media_path }, { url: url(ogg.media_path), contentType: "audio/ogg" }],
      [
        "sticker",
        { media_path: webp.media_path },
        { url: url(webp.media_path), contentType: "image/webp", sha256: webp.sha256, animated: false },
      ],
    ];
    for (const [type, payload, stored] of cases) {
      const res = await api.post(SEND, body(c, type, payload));
      expect(res.status, type).toBe(200);
      const row = await messageByUpdateId(res.body.data.update_id);
      expect(row.type).toBe(type);
      expect(row.payload, type).toEqual(stored);
      expect(row.mediaPath).toBe((payload as { media_path: string }).media_path);
    }
  });

  it("stores location, contacts, quick_reply and list replies as sent", async () => {
    const c = await openConversation();
    const api = apiClient(server.url, c.team.token);
    const location = await api.post(
      SEND,
      body(c, "location", { latitude: 4.711, longitude: "-74.0721", name: "Tienda", address: "Calle 1" }),
    );
    expect(location.status).toBe(200);
    expect((await messageByUpdateId(location.body.data.update_id)).payload).toEqual({
      latitude: "4.711",
      longitude: "-74.0721",
      name: "Tienda",
      address: "Calle 1",
    });

    const card = [
      { name: { formatted_name: "Soporte Tienda", first_name: "Soporte" }, phones: [{ phone: "+57 300 000 0000", type: "WORK" }] },
    ];
    const contactsRes = await api.post(SEND, body(c, "contacts", card));
    expect(contactsRes.status).toBe(200);
    expect((await messageByUpdateId(contactsRes.body.data.update_id)).payload).toEqual(card);

    const quick = await api.post(
      SEND,
      body(c, "quick_reply", { content: { text: "¿Confirma la cita?" }, options: [{ title: "Sí", id: "si" }, { title: "No" }] }),
    );
    expect(quick.status).toBe(200);
    expect((await messageByUpdateId(quick.body.data.update_id)).payload).toEqual({
      content: { type: "text", header: null, text: "¿Confirma la cita?" },
      options: [
        { type: "text", title: "Sí", id: "si" },
        { type: "text", title: "No", id: "2" },
      ],
    });

    const list = await api.post(
      SEND,
      body(c, "list", {
        body: "Elija una sucursal",
        button: "Ver sucursales",
        items: [{ rows: [{ id: "n", title: "Norte", description: "Cra 7" }] }],
      }),
    );
    expect(list.status).toBe(200);
    expect((await messageByUpdateId(list.body.data.update_id)).payload).toEqual({
      title: null,
      body: "Elija una sucursal",
      button: "Ver sucursales",
      items: [{ title: null, rows: [{ id: "n", title: "Norte", description: "Cra 7" }] }],
    });
  });
});

describe("POST /api/v1/messages/{channel}/send — limits, each with its exact message", () => {
  const row = (i: number, title = `Fila ${i}`) => ({ id: `r${i}`, title });
  const cases: [string, string, unknown, string][] = [
    ["text too long", "text", { text: "a".repeat(4097) }, M.TEXT_TOO_LONG],
    ["text empty", "text", { text: "  " }, M.TEXT_REQUIRED],
    ["caption too long", "image", { media_path: "uploads/team1/x.png", caption: "a".repeat(1025) }, M.CAPTION_TOO_LONG],
    ["filename too long", "document", { media_path: "uploads/team1/x.pdf", filename: "a".repeat(241) }, M.FILENAME_TOO_LONG],
    ["media_path missing", "image", {}, M.MEDIA_PATH_REQUIRED],
    ["latitude", "location", { latitude: 91, longitude: 0 }, M.LATITUDE_INVALID],
    ["longitude", "location", { latitude: 0, longitude: "abc" }, M.LONGITUDE_INVALID],
    ["location name", "location", { latitude: 0, longitude: 0, name: "a".repeat(1001) }, M.LOCATION_TEXT_TOO_LONG],
    ["no contacts", "contacts", [], M.CONTACTS_REQUIRED],
    ["too many contacts", "contacts", Array.from({ length: 11 }, () => ({ name: { formatted_name: "X" } })), M.CONTACTS_TOO_MANY],
    ["contact without name", "contacts", [{ phones: [] }], M.CONTACT_NAME_REQUIRED],
    ["quick reply without text", "quick_reply", { content: {}, options: [{ title: "Sí" }] }, M.QUICK_REPLY_TEXT_REQUIRED],
    [
      "quick reply text too long",
      "quick_reply",
      { content: { text: "a".repeat(1025) }, options: [{ title: "Sí" }] },
      M.QUICK_REPLY_TEXT_TOO_LONG,
    ],
    [
      "quick reply header too long",
      "quick_reply",
      { content: { header: "a".repeat(61), text: "x" }, options: [{ title: "Sí" }] },
      M.HEADER_TOO_LONG,
    ],
    ["no options", "quick_reply", { content: { text: "x" }, options: [] }, M.OPTIONS_COUNT],
    ["four options", "quick_reply", { content: { text: "x" }, options: [1, 2, 3, 4].map((i) => ({ title: `O${i}` })) }, M.OPTIONS_COUNT],
    ["option title too long", "quick_reply", { content: { text: "x" }, options: [{ title: "a".repeat(21) }] }, M.OPTION_TITLE_TOO_LONG],
    ["option title empty", "quick_reply", { content: { text: "x" }, options: [{ title: "" }] }, M.OPTION_TITLE_REQUIRED],
    ["option id too long", "quick_reply", { content: { text: "x" }, options: [{ title: "a", id: "i".repeat(257) }] }, M.OPTION_ID_TOO_LONG],
    [
      "option ids repeated",
      "quick_reply",
      {
        content: { text: "x" },
        options: [
          { title: "a", id: "1" },
          { title: "b", id: "1" },
        ],
      },
      M.OPTION_ID_REPEATED,
    ],
    ["list body", "list", { button: "Ver", items: [{ rows: [row(1)] }] }, M.LIST_BODY_REQUIRED],
    ["list body too long", "list", { body: "a".repeat(4097), button: "Ver", items: [{ rows: [row(1)] }] }, M.LIST_BODY_TOO_LONG],
    ["list button missing", "list", { body: "x", items: [{ rows: [row(1)] }] }, M.LIST_BUTTON_REQUIRED],
    ["list button too long", "list", { body: "x", button: "a".repeat(21), items: [{ rows: [row(1)] }] }, M.LIST_BUTTON_TOO_LONG],
    ["list title too long", "list", { title: "a".repeat(61), body: "x", button: "Ver", items: [{ rows: [row(1)] }] }, M.HEADER_TOO_LONG],
    ["list without rows", "list", { body: "x", button: "Ver", items: [{ rows: [] }] }, M.LIST_SECTIONS_REQUIRED],
    ["list without sections", "list", { body: "x", button: "Ver", items: [] }, M.LIST_SECTIONS_REQUIRED],
    [
      "eleven rows in all",
      "list",
      {
        body: "x",
        button: "Ver",
        items: [
          { title: "A", rows: [1, 2, 3, 4, 5, 6].map((i) => row(i)) },
          { title: "B", rows: [7, 8, 9, 10, 11].map((i) => row(i)) },
        ],
      },
      M.LIST_ROWS_TOO_MANY,
    ],
    [
      "section title too long",
      "list",
      { body: "x", button: "Ver", items: [{ title: "a".repeat(25), rows: [row(1)] }] },
      M.LIST_SECTION_TITLE_TOO_LONG,
    ],
    [
      "untitled sections",
      "list",
      { body: "x", button: "Ver", items: [{ rows: [row(1)] }, { title: "B", rows: [row(2)] }] },
      M.LIST_SECTION_TITLE_REQUIRED,
    ],
    ["row title too long", "list", { body: "x", button: "Ver", items: [{ rows: [row(1, "a".repeat(25))] }] }, M.LIST_ROW_TITLE_TOO_LONG],
    ["row title empty", "list", { body: "x", button: "Ver", items: [{ rows: [row(1, "")] }] }, M.LIST_ROW_TITLE_REQUIRED],
    [
      "row description",
      "list",
      { body: "x", button: "Ver", items: [{ rows: [{ ...row(1), description: "a".repeat(73) }] }] },
      M.LIST_ROW_DESCRIPTION_TOO_LONG,
    ],
    ["row id missing", "list", { body: "x", button: "Ver", items: [{ rows: [{ title: "a" }] }] }, M.LIST_ROW_ID_REQUIRED],
    [
      "row id too long",
      "list",
      { body: "x", button: "Ver", items: [{ rows: [{ id: "i".repeat(201), title: "a" }] }] },
      M.LIST_ROW_ID_TOO_LONG,
    ],
    ["row ids repeated", "list", { body: "x", button: "Ver", items: [{ rows: [row(1), row(1)] }] }, M.LIST_ROW_ID_REPEATED],
    ["unknown type", "reaction", { emoji: "👍" }, M.REPLY_TYPE_INVALID],
  ];
  for (const [name, type, payload, message] of cases) {
    it(`${name}: ${message}`, async () => {
      const c = await openConversation();
      const res = await apiClient(server.url, c.team.token).post(SEND, body(c, type, payload));
      expect(res.status).toBe(422);
      expect(res.body.message).toBe(message);
      expect(allErrors(res)).toContain(message);
    });
  }

  it("accepts each limit's edge: 4096 characters, 3 options of 20, 10 rows of 24, a button of 20", async () => {
    const c = await openConversation();
    const api = apiClient(server.url, c.team.token);
    expect((await api.post(SEND, body(c, "text", { text: "a".repeat(4096) }))).status).toBe(200);
    const options = [1, 2, 3].map((i) => ({ title: `${i}`.padEnd(20, "x") }));
    expect((await api.post(SEND, body(c, "quick_reply", { content: { text: "x" }, options }))).status).toBe(200);
    const rows = Array.from({ length: 10 }, (_, i) => ({ id: `r${i}`, title: `${i}`.padEnd(24, "y") }));
    expect(
      (await api.post(SEND, body(c, "list", { body: "x", button: "b".repeat(20), items: [{ title: "s".repeat(24), rows }] }))).status,
    ).toBe(200);
  });

  it("checks media by the rules of 4.1: extension of the type, own team (403), existence", async () => {
    const c = await openConversation();
    const api = apiClient(server.url, c.team.token);
    const jpg = await uploadFor(c.team.id, jpegBytes(), "foto.jpg");
    const wrongExt = await api.post(SEND, body(c, "sticker", { media_path: jpg.media_path }));
    expect(wrongExt.status).toBe(422);
    expect(wrongExt.body.errors).toEqual({
      "payload.media_path": ["El archivo de media_path debe tener extensión .webp para un mensaje de tipo sticker."],
    });
    const audio = await api.post(SEND, body(c, "audio", { media_path: jpg.media_path }));
    expect(audio.body.message).toBe("El archivo de media_path debe tener extensión .ogg o .mp3 para un mensaje de tipo audio.");

    const other = await createTeam();
    const foreign = await uploadFor(other.id, pngBytes(), "ajena.png");
    const forbidden = await api.post(SEND, body(c, "image", { media_path: foreign.media_path }));
    expect(forbidden.status).toBe(403);
    expect(forbidden.body.message).toBe(mediaNotOwned(c.team.id));

    const missing = await api.post(SEND, body(c, "image", { media_path: `uploads/team${c.team.id}/nada.png` }));
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ "payload.media_path": [MEDIA_MISSING] });
  });
});

describe("POST /api/v1/messages/{channel}/send — context and tenancy", () => {
  it("answers a given message with context_update_id (stored as the message it replies to)", async () => {
    const c = await openConversation();
    const res = await apiClient(server.url, c.team.token).post(
      SEND,
      body(c, "text", { text: "Sí" }, { context_update_id: c.inbound.updateId }),
    );
    expect(res.status).toBe(200);
    expect((await messageByUpdateId(res.body.data.update_id)).replyToMessageId).toBe(c.inbound.id);
    const shown = await apiClient(server.url, c.team.token).get(`/api/v1/updates/${res.body.data.update_id}`);
    expect(shown.status).toBe(200);
    expect(JSON.stringify(shown.body)).toContain(c.inbound.updateId);
  });

  it("refuses another team's number, contact and context message, and a malformed context id", async () => {
    const mine = await openConversation();
    const theirs = await openConversation();
    const api = apiClient(server.url, mine.team.token);
    const number = await api.post(SEND, body(mine, "text", { text: "x" }, { wa_number: theirs.number.number }));
    expect(number.status).toBe(422);
    expect(number.body.errors).toEqual({ wa_number: [WA_NUMBER_NOT_REGISTERED] });
    const contact = await api.post(SEND, body(mine, "text", { text: "x" }, { customer_source: theirs.contact.customerNumber }));
    expect(contact.status).toBe(422);
    expect(contact.body.errors).toEqual({ customer_source: [WINDOW_CLOSED] });
    const context = await api.post(SEND, body(mine, "text", { text: "x" }, { context_update_id: theirs.inbound.updateId }));
    expect(context.status).toBe(422);
    expect(context.body.errors).toEqual({ context_update_id: [CONTEXT_NOT_FOUND] });
    const malformed = await api.post(SEND, body(mine, "text", { text: "x" }, { context_update_id: "nope" }));
    expect(malformed.status).toBe(422);
    expect(malformed.body.message).toBe(M.CONTEXT_UPDATE_ID_INVALID);

    // Another conversation of the same team is not this one either.
    const sibling = await createContact(mine.team.id);
    const [elsewhere] = await insertMessages({ ...mine, contact: sibling }, [{}]);
    const notHere = await api.post(SEND, body(mine, "text", { text: "x" }, { context_update_id: elsewhere.updateId }));
    expect(notHere.body.errors).toEqual({ context_update_id: [CONTEXT_NOT_FOUND] });
  });
});

describe("POST /api/v1/messages/{channel}/send — idempotency", () => {
  it("replays the first answer for the same key and body, refuses the key with another body", async () => {
    const c = await openConversation();
    const api = apiClient(server.url, c.team.token);
    const key = { "Idempotency-Key": `reply-${Date.now()}` };
    const first = await api.post(SEND, body(c, "text", { text: "una vez" }), key);
    expect(first.status).toBe(200);
    const again = await api.post(SEND, body(c, "text", { text: "una vez" }), key);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    const other = await api.post(SEND, body(c, "text", { text: "otra" }), key);
    expect(other.status).toBe(422);
    const outbound = (await countMessages(c.team.id)) - 1; // minus the customer's message
    expect(outbound).toBe(1);
  });
});

/** An OGG Opus header (what WhatsApp voice notes are), enough for content sniffing. */
function oggBytes(): Uint8Array {
  const out = new Uint8Array(96);
  out.set(new TextEncoder().encode("OggS"), 0);
  out.set(new TextEncoder().encode("OpusHead"), 28);
  return out;
}
