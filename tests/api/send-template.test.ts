import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createBot, createCampaign, createContact, createNumber, createTeam, createTemplate } from "../helpers/factories";
import { agentSession, countContacts, countMessages, messageByUpdateId, sendingTeam } from "../helpers/send-factories";
import { WA_NUMBER_NOT_REGISTERED } from "@/lib/numbers/service";
import { templateNotApproved, templateNotFound } from "@/lib/templates/service";
import { DESTINATION_INVALID } from "@/lib/messages/send-schemas";

const SEND = "/api/v1/message_templates/send";
let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

type Setup = Awaited<ReturnType<typeof sendingTeam>>;
const validBody = (s: Setup, extra: Record<string, unknown> = {}) => ({
  wa_number: s.number.number,
  destination: "+57 300 123 4567",
  template_name: s.template.name,
  header_param: { key: "1", value: "Ana" },
  body_params: [
    { key: "1", value: "A-77" },
    { key: "2", value: "martes" },
  ],
  ...extra,
});

describe("POST /api/v1/message_templates/send — success", () => {
  it("queues the message and stores it per rulings 10–12", async () => {
    const s = await sendingTeam();
    const res = await apiClient(server.url, s.team.token).post(SEND, validBody(s, { sent_group: "promo-junio" }));
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Mensaje en cola para su envío.");
    expect(res.body.data.update_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

    const row = await messageByUpdateId(res.body.data.update_id);
    expect(row).toMatchObject({
      teamId: s.team.id,
      waNumberId: s.number.id,
      direction: "OUTBOUND",
      type: "template",
      status: "QUEUED",
      sender: "SYSTEM",
      agentId: 0,
      agentName: null,
      customerNumber: "573001234567",
      customerId: null,
      templateId: s.template.id,
      templateName: s.template.name,
      templateLanguage: "es_CO",
      mediaPath: null,
      sentGroup: "promo-junio",
      responseHandler: "CAMPAIGN",
      campaignId: null,
      botId: null,
      sendParams: {
        header_param: { key: "1", value: "Ana" },
        body_params: [
          { key: "1", value: "A-77" },
          { key: "2", value: "martes" },
        ],
      },
    });
    expect(row.nextAttemptAt).toBeInstanceOf(Date);
    expect(Math.abs(row.nextAttemptAt!.getTime() - Date.now())).toBeLessThan(60_000);
    expect(row.payload).toEqual({
      id: String(s.template.id),
      name: s.template.name,
      status: "APPROVED",
      category: "UTILITY",
      language: "es_CO",
      rejected_reason: "NONE",
      components: [
        { type: "HEADER", format: "TEXT", text: "Hola Ana" },
        { type: "BODY", text: "Tu pedido A-77 llega el martes.", example: { body_text: [["A-1", "lunes"]] } },
        { type: "FOOTER", text: "Tienda Demo" },
        {
          type: "BUTTONS",
          buttons: [
            { type: "QUICK_REPLY", text: "Gracias", payload: "THANKS" },
            { type: "URL", text: "Ver", url: "https://example.com/pedidos" },
          ],
        },
      ],
    });
  });

  it("reuses the team's contact for the same number however it is written, copying its customer_id", async () => {
    const s = await sendingTeam();
    const contact = await createContact(s.team.id, { customerNumber: "573009998877", customerId: "cus_77" });
    const api = apiClient(server.url, s.team.token);
    const a = await api.post(SEND, validBody(s, { destination: "+57 (300) 999-8877" }));
    const b = await api.post(SEND, validBody(s, { destination: "00573009998877" }));
    expect([a.status, b.status]).toEqual([200, 200]);
    for (const res of [a, b]) {
      const row = await messageByUpdateId(res.body.data.update_id);
      expect(row).toMatchObject({ contactId: contact.id, customerNumber: "573009998877", customerId: "cus_77" });
    }
    expect(await countContacts(s.team.id, "573009998877")).toBe(1);
  });

  it("creates exactly one contact when a new number is sent to concurrently", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const results = await Promise.all(Array.from({ length: 8 }, () => api.post(SEND, validBody(s, { destination: "573115550001" }))));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(await countContacts(s.team.id, "573115550001")).toBe(1);
    expect(await countMessages(s.team.id)).toBe(8);
  });

  it("records a signed-in agent as the sender (ruling 12)", async () => {
    const s = await sendingTeam();
    const { agent, headers } = await agentSession(s.team.id);
    const res = await apiClient(server.url).post(SEND, validBody(s), headers);
    expect(res.status).toBe(200);
    const row = await messageByUpdateId(res.body.data.update_id);
    expect(row).toMatchObject({ sender: "AGENT", agentId: agent.id, agentName: agent.name });
  });

  it("stores the reply routing: CHATBOT with its bot, CAMPAIGN with its campaign", async () => {
    const s = await sendingTeam();
    const bot = await createBot(s.team.id);
    const campaign = await createCampaign(s.team.id);
    const api = apiClient(server.url, s.team.token);
    const chat = await api.post(SEND, validBody(s, { response_handler: "CHATBOT", bot_id: bot.id }));
    expect(chat.status).toBe(200);
    expect(await messageByUpdateId(chat.body.data.update_id)).toMatchObject({
      responseHandler: "CHATBOT",
      botId: bot.id,
      campaignId: null,
    });
    const camp = await api.post(SEND, validBody(s, { response_handler: "CAMPAIGN", campaign_id: campaign.id }));
    expect(camp.status).toBe(200);
    expect(await messageByUpdateId(camp.body.data.update_id)).toMatchObject({
      responseHandler: "CAMPAIGN",
      campaignId: campaign.id,
      botId: null,
    });
  });

  it("uses a team-wide template from any number, and a number's own template only from that number", async () => {
    const s = await sendingTeam();
    const second = await createNumber(s.team.id);
    const own = await createTemplate(s.team.id, { waNumberId: s.number.id });
    const api = apiClient(server.url, s.team.token);
    expect((await api.post(SEND, validBody(s, { wa_number: second.number }))).status).toBe(200);
    expect((await api.post(SEND, validBody(s, { template_name: own.name }))).status).toBe(200);
    const other = await api.post(SEND, validBody(s, { wa_number: second.number, template_name: own.name }));
    expect(other.status).toBe(422);
    expect(other.body).toEqual({ message: templateNotFound(own.name), errors: { template_name: [templateNotFound(own.name)] } });
  });
});

describe("POST /api/v1/message_templates/send — contract messages (422)", () => {
  async function expect422(body: (s: Setup) => Record<string, unknown>, field: string, message: string | ((s: Setup) => string)) {
    const s = await sendingTeam();
    const res = await apiClient(server.url, s.team.token).post(SEND, body(s));
    const text = typeof message === "function" ? message(s) : message;
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(text);
    expect(res.body.errors[field]).toEqual([text]);
    expect(await countMessages(s.team.id)).toBe(0);
  }

  it.each(["EMAIL", "campaign", "", 5])("rejects response_handler %j with the exact text", async (value) => {
    await expect422(
      (s) => validBody(s, { response_handler: value }),
      "response_handler",
      "El atributo response_handler debe ser CAMPAIGN o CHATBOT",
    );
  });

  it("requires bot_id with CHATBOT", async () => {
    await expect422(
      (s) => validBody(s, { response_handler: "CHATBOT" }),
      "bot_id",
      "El atributo bot_id es requerido cuando response_handler es CHATBOT",
    );
    await expect422(
      (s) => validBody(s, { response_handler: "CHATBOT", bot_id: null }),
      "bot_id",
      "El atributo bot_id es requerido cuando response_handler es CHATBOT",
    );
  });

  it("names a missing bot, with CHATBOT and with CAMPAIGN", async () => {
    await expect422(
      (s) => validBody(s, { response_handler: "CHATBOT", bot_id: 987654321 }),
      "bot_id",
      "El bot con el ID: 987654321 no existe!",
    );
    await expect422((s) => validBody(s, { bot_id: 987654322 }), "bot_id", "El bot con el ID: 987654322 no existe!");
    await expect422(
      (s) => validBody(s, { response_handler: "CHATBOT", bot_id: 99999999999 }),
      "bot_id",
      "El bot con el ID: 99999999999 no existe!",
    );
  });

  it("names a missing campaign (ruling 8)", async () => {
    await expect422((s) => validBody(s, { campaign_id: 987654321 }), "campaign_id", "La campaña con el ID: 987654321 no existe!");
  });

  it("rejects an unregistered wa_number", async () => {
    await expect422((s) => validBody(s, { wa_number: "19999999999" }), "wa_number", WA_NUMBER_NOT_REGISTERED);
  });

  it("rejects an unknown or unapproved template", async () => {
    await expect422((s) => validBody(s, { template_name: "no_such_template" }), "template_name", templateNotFound("no_such_template"));
    const s = await sendingTeam();
    const pending = await createTemplate(s.team.id, { status: "PENDING" });
    const res = await apiClient(server.url, s.team.token).post(SEND, validBody(s, { template_name: pending.name }));
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(templateNotApproved(pending.name, "PENDING"));
  });

  it.each(["abc", "123", "+57 300", "0573001234567", "5730012345678901"])("rejects destination %j", async (destination) => {
    await expect422((s) => validBody(s, { destination }), "destination", DESTINATION_INVALID);
  });

  it.each(["wa_number", "destination", "template_name"])("requires %s", async (field) => {
    await expect422((s) => ({ ...validBody(s), [field]: undefined }), field, `El campo ${field} es obligatorio.`);
  });

  it("requires integer ids", async () => {
    await expect422((s) => validBody(s, { campaign_id: "uno" }), "campaign_id", "El campo campaign_id debe ser un número entero.");
    await expect422((s) => validBody(s, { bot_id: 1.5 }), "bot_id", "El campo bot_id debe ser un número entero.");
  });
});

describe("POST /api/v1/message_templates/send — parameters (ruling 9)", () => {
  async function send(s: Setup, extra: Record<string, unknown>) {
    return apiClient(server.url, s.team.token).post(SEND, validBody(s, extra));
  }

  it("requires a value for every {{n}} of the body", async () => {
    const s = await sendingTeam();
    const res = await send(s, { body_params: [{ key: "1", value: "A-77" }] });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      message: "Falta el valor del parámetro {{2}} del cuerpo de la plantilla.",
      errors: { body_params: ["Falta el valor del parámetro {{2}} del cuerpo de la plantilla."] },
    });
    const none = await send(s, { body_params: undefined });
    expect(none.body.message).toBe("Falta el valor del parámetro {{1}} del cuerpo de la plantilla.");
  });

  it("rejects an unknown body key, naming it", async () => {
    const s = await sendingTeam();
    const res = await send(s, {
      body_params: [
        { key: "1", value: "a" },
        { key: "2", value: "b" },
        { key: "3", value: "c" },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("El parámetro {{3}} no existe en el cuerpo de la plantilla.");
    expect(res.body.errors["body_params.2.key"]).toEqual([res.body.message]);
  });

  it("rejects repeated body keys", async () => {
    const s = await sendingTeam();
    const res = await send(s, {
      body_params: [
        { key: "1", value: "a" },
        { key: "2", value: "b" },
        { key: "1", value: "c" },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("El parámetro {{1}} está repetido en body_params.");
  });

  it("requires key and value in each body param", async () => {
    const s = await sendingTeam();
    const noValue = await send(s, { body_params: [{ key: "1" }, { key: "2", value: "b" }] });
    expect(noValue.status).toBe(422);
    expect(noValue.body.message).toBe("El campo body_params.0.value es obligatorio.");
    const noKey = await send(s, { body_params: [{ key: "1", value: "a" }, { value: "b" }] });
    expect(noKey.body.message).toBe("El campo body_params.1.key es obligatorio.");
    const blank = await send(s, {
      body_params: [
        { key: "1", value: "" },
        { key: "2", value: "b" },
      ],
    });
    expect(blank.body.message).toBe("El campo body_params.0.value es obligatorio.");
  });

  it("refuses values the channel would reject (new lines, tabs, 5+ spaces)", async () => {
    const s = await sendingTeam();
    const res = await send(s, {
      body_params: [
        { key: "1", value: "a\nb" },
        { key: "2", value: "b" },
      ],
    });
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(
      "El valor del parámetro {{1}} no puede contener saltos de línea, tabulaciones ni más de 4 espacios seguidos.",
    );
  });

  it("requires header_param for a TEXT header with a variable, with the header's key", async () => {
    const s = await sendingTeam();
    const missing = await send(s, { header_param: undefined });
    expect(missing.status).toBe(422);
    expect(missing.body.message).toBe("El atributo header_param es requerido: el encabezado de la plantilla tiene la variable {{1}}.");
    expect((await send(s, { header_param: null })).status).toBe(422);
    const wrongKey = await send(s, { header_param: { key: "2", value: "x" } });
    expect(wrongKey.status).toBe(422);
    expect(wrongKey.body.message).toBe("El parámetro {{2}} no existe en el encabezado de la plantilla.");
  });

  it("refuses header_param when the header has no variable, or there is no header", async () => {
    const s = await sendingTeam();
    const plain = await createTemplate(s.team.id, {
      components: [
        { type: "HEADER", format: "TEXT", text: "Aviso" },
        { type: "BODY", text: "Sin variables." },
      ],
    });
    const bodyOnly = await createTemplate(s.team.id, { components: [{ type: "BODY", text: "Hola {{1}}" }] });
    const api = apiClient(server.url, s.team.token);
    const msg = "El encabezado de la plantilla no tiene variables: no se admite header_param.";
    const a = await api.post(SEND, validBody(s, { template_name: plain.name, body_params: [] }));
    expect(a.status).toBe(422);
    expect(a.body.errors.header_param).toEqual([msg]);
    const b = await api.post(SEND, validBody(s, { template_name: bodyOnly.name, body_params: [{ key: "1", value: "Ana" }] }));
    expect(b.body.message).toBe(msg);
    const ok = await api.post(SEND, validBody(s, { template_name: plain.name, header_param: null, body_params: [] }));
    expect(ok.status).toBe(200);
    expect((await messageByUpdateId(ok.body.data.update_id)).payload).toMatchObject({
      components: [
        { type: "HEADER", format: "TEXT", text: "Aviso" },
        { type: "BODY", text: "Sin variables." },
      ],
    });
  });
});

describe("POST /api/v1/message_templates/send — auth, tenancy, body", () => {
  it("answers 401 without or with a wrong token", async () => {
    const s = await sendingTeam();
    for (const token of [undefined, "wam_wrong"]) {
      const res = await apiClient(server.url, token).post(SEND, validBody(s));
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ message: "Unauthenticated." });
    }
    expect(await countMessages(s.team.id)).toBe(0);
  });

  it("never lets another team use this team's number, template, bot or campaign", async () => {
    const a = await sendingTeam();
    const bot = await createBot(a.team.id);
    const campaign = await createCampaign(a.team.id);
    const b = await createTeam();
    const bNumber = await createNumber(b.id);
    const api = apiClient(server.url, b.token);

    const number = await api.post(SEND, validBody(a));
    expect(number.status).toBe(422);
    expect(number.body.message).toBe(WA_NUMBER_NOT_REGISTERED);

    const template = await api.post(SEND, validBody(a, { wa_number: bNumber.number }));
    expect(template.body.message).toBe(templateNotFound(a.template.name));

    const bTemplate = await createTemplate(b.id);
    const asB = (extra: Record<string, unknown>) => validBody(a, { wa_number: bNumber.number, template_name: bTemplate.name, ...extra });
    const botRes = await api.post(SEND, asB({ response_handler: "CHATBOT", bot_id: bot.id }));
    expect(botRes.status).toBe(422);
    expect(botRes.body.message).toBe(`El bot con el ID: ${bot.id} no existe!`);
    const campaignRes = await api.post(SEND, asB({ campaign_id: campaign.id }));
    expect(campaignRes.body.message).toBe(`La campaña con el ID: ${campaign.id} no existe!`);

    expect(await countMessages(a.team.id)).toBe(0);
    expect(await countMessages(b.id)).toBe(0);
  });

  it("answers 400 to malformed JSON and 415 to a non-JSON body", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const bad = await api.post(SEND, '{"wa_number": ', { "content-type": "application/json" });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: "El cuerpo de la solicitud no es un JSON válido." });
    const form = await api.post(SEND, "wa_number=1", { "content-type": "application/x-www-form-urlencoded" });
    expect(form.status).toBe(415);
  });
});
