import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { messages } from "@/db/schema";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createBot, createNumber, createTeam } from "../helpers/factories";
import { agentSession, messageByUpdateId, sendingTeam } from "../helpers/send-factories";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const SEND = "/api/v1/message_templates/send";
type Setup = Awaited<ReturnType<typeof sendingTeam>>;
const sendBody = (s: Setup, destination: string, extra: Record<string, unknown>) => ({
  wa_number: s.number.number,
  destination,
  template_name: s.template.name,
  header_param: { key: "1", value: "Ana" },
  body_params: [
    { key: "1", value: "A-77" },
    { key: "2", value: "martes" },
  ],
  ...extra,
});

describe("bots and campaigns as settings", () => {
  it("creates, changes, rotates and deletes a bot; its secret shows once and never in the audit trail", async () => {
    const team = await createTeam();
    const owner = await agentSession(team.id);
    const api = apiClient(server.url);
    const created = await api.post(
      "/api/v1/bots",
      { name: "Asistente", is_default: true, webhook_url: "https://bots.example.com/h" },
      owner.headers,
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toBe("Bot creado correctamente.");
    const bot = created.body.data;
    expect(bot).toMatchObject({ name: "Asistente", is_default: true, webhook_url: "https://bots.example.com/h", has_webhook_secret: true });
    expect(bot.webhook_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const rules = await api.get("/api/v1/routing", owner.headers);
    expect(rules.status).toBe(200);
    expect(rules.body.data.default_bot_id).toBe(bot.id);
    expect(rules.body.data.rules.map((r: { rule: string }) => r.rule)).toEqual([
      "response_handler_chatbot",
      "campaign_id",
      "default_bot",
      "no_default_bot",
    ]);
    const { webhook_secret: _secret, ...listed } = bot;
    expect(rules.body.data.bots).toEqual([listed]);
    expect(rules.text).not.toContain(bot.webhook_secret);

    const renamed = await api.patch(`/api/v1/bots/${bot.id}`, { name: "Asistente 2", is_default: false }, owner.headers);
    expect(renamed.status).toBe(200);
    expect(renamed.body.data).toMatchObject({ name: "Asistente 2", is_default: false, has_webhook_secret: true, webhook_secret: null });

    const rotated = await api.post(`/api/v1/bots/${bot.id}/rotate-secret`, undefined, owner.headers);
    expect(rotated.status).toBe(200);
    expect(rotated.body.data.webhook_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(rotated.body.data.webhook_secret).not.toBe(bot.webhook_secret);

    const unhooked = await api.patch(`/api/v1/bots/${bot.id}`, { webhook_url: null }, owner.headers);
    expect(unhooked.body.data).toMatchObject({ webhook_url: null, has_webhook_secret: false });
    const noSecret = await api.post(`/api/v1/bots/${bot.id}/rotate-secret`, undefined, owner.headers);
    expect(noSecret.status).toBe(409);
    expect(noSecret.body.message).toBe("Sin webhook_url no hay secreto que renovar: agregue primero la URL.");
    const rehooked = await api.patch(`/api/v1/bots/${bot.id}`, { webhook_url: "https://bots.example.com/otro" }, owner.headers);
    expect(rehooked.body.data.webhook_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const deleted = await api.delete(`/api/v1/bots/${bot.id}`, undefined, owner.headers);
    expect(deleted.status).toBe(200);
    expect((await api.get("/api/v1/bots", owner.headers)).body.data).toEqual([]);

    const audit = await api.get("/api/v1/audit?per_page=50", owner.headers);
    const actions = audit.body.data.map((e: { action: string }) => e.action);
    for (const a of ["bot.created", "bot.updated", "bot.secret_rotated", "bot.deleted"]) expect(actions).toContain(a);
    for (const secret of [bot.webhook_secret, rotated.body.data.webhook_secret, rehooked.body.data.webhook_secret]) {
      expect(audit.text).not.toContain(secret);
    }
    const rotation = audit.body.data.find((e: { action: string }) => e.action === "bot.secret_rotated");
    expect(rotation.changes).toEqual({ webhook_secret: { changed: true } });
  });

  it("creates, changes and deletes a campaign; a campaign messages name cannot be deleted", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const created = await api.post("/api/v1/campaigns", { name: "Promo" });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: "Promo", webhook_url: null, has_webhook_secret: false, webhook_secret: null });
    const id = created.body.data.id;
    const hooked = await api.patch(`/api/v1/campaigns/${id}`, { webhook_url: "https://crm.example.com/promo" });
    expect(hooked.status).toBe(200);
    expect(hooked.body.data.webhook_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const sent = await api.post(SEND, sendBody(s, "+57 300 555 0101", { response_handler: "CAMPAIGN", campaign_id: id }));
    expect(sent.status).toBe(200);
    const refused = await api.delete(`/api/v1/campaigns/${id}`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe("La campaña tiene mensajes enviados o recibidos y no se puede eliminar.");
    const spare = await api.post("/api/v1/campaigns", { name: "Sin usar" });
    expect((await api.delete(`/api/v1/campaigns/${spare.body.data.id}`)).status).toBe(200);
    expect((await api.get("/api/v1/campaigns")).body.data.map((c: { name: string }) => c.name)).toEqual(["Promo"]);
  });

  it("answers validation errors in Spanish, with the field", async () => {
    const team = await createTeam();
    const api = apiClient(server.url, team.token);
    const empty = await api.post("/api/v1/bots", { name: " " });
    expect(empty.status).toBe(422);
    expect(empty.body).toEqual({
      message: "El campo name no puede estar vacío.",
      errors: { name: ["El campo name no puede estar vacío."] },
    });
    const ftp = await api.post("/api/v1/campaigns", { name: "x", webhook_url: "ftp://x.test" });
    expect(ftp.status).toBe(422);
    expect(ftp.body.errors).toEqual({ webhook_url: ["El campo webhook_url debe ser una URL http(s) válida."] });
    const creds = await api.post("/api/v1/bots", { name: "x", webhook_url: "https://u:p@hooks.example.com/h" });
    expect(creds.status).toBe(422);
    expect(creds.body.errors).toEqual({ webhook_url: ["El campo webhook_url no puede incluir usuario ni contraseña."] });
    const bot = await createBot(team.id);
    const credsLater = await api.patch(`/api/v1/bots/${bot.id}`, { webhook_url: "https://u:p@hooks.example.com/h" });
    expect(credsLater.body.message).toBe("El campo webhook_url no puede incluir usuario ni contraseña.");
    const long = await api.patch(`/api/v1/bots/${bot.id}`, { name: "x".repeat(101) });
    expect(long.body.message).toBe("El campo name no puede tener más de 100 caracteres.");
    const number = await createNumber(team.id);
    const badFrom = await api.post("/api/v1/routing/test", { wa_number: number.number, from: "hola", text: "hola" });
    expect(badFrom.status).toBe(422);
    expect(badFrom.body.errors).toEqual({ from: ["El campo from debe ser un número de teléfono."] });
    const unknownNumber = await api.post("/api/v1/routing/test", { wa_number: "573999999999", from: "573001112233", text: "hola" });
    expect(unknownNumber.status).toBe(422);
    expect(Object.keys(unknownNumber.body.errors)).toEqual(["wa_number"]);
  });

  it("keeps teams apart: another team's bot or campaign is 404 and never listed", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const api = apiClient(server.url, team.token);
    const theirs = apiClient(server.url, other.token);
    const bot = (await api.post("/api/v1/bots", { name: "Mío" })).body.data;
    const campaign = (await api.post("/api/v1/campaigns", { name: "Mía" })).body.data;
    const patch = await theirs.patch(`/api/v1/bots/${bot.id}`, { name: "Robado" });
    expect(patch.status).toBe(404);
    expect(patch.body.message).toBe("El bot no existe.");
    expect((await theirs.delete(`/api/v1/bots/${bot.id}`)).status).toBe(404);
    expect((await theirs.post(`/api/v1/bots/${bot.id}/rotate-secret`)).status).toBe(404);
    const del = await theirs.delete(`/api/v1/campaigns/${campaign.id}`);
    expect(del.status).toBe(404);
    expect(del.body.message).toBe("La campaña no existe.");
    const rules = (await theirs.get("/api/v1/routing")).body.data;
    expect(rules.bots).toEqual([]);
    expect(rules.campaigns).toEqual([]);
    expect((await api.get("/api/v1/bots")).body.data).toEqual([{ id: bot.id, name: "Mío", is_default: false }]);
  });
});

describe("POST /api/v1/routing/test", () => {
  it("names what the inbound path then routes the same reply to", async () => {
    const s = await sendingTeam();
    const api = apiClient(server.url, s.team.token);
    const fallback = (await api.post("/api/v1/bots", { name: "Predeterminado", is_default: true })).body.data;
    const chatbot = (await api.post("/api/v1/bots", { name: "Soporte" })).body.data;
    const campaign = (await api.post("/api/v1/campaigns", { name: "Navidad" })).body.data;
    const customer = "573005550202";

    const stranger = await api.post("/api/v1/routing/test", { wa_number: s.number.number, from: "573005559999", text: "Hola" });
    expect(stranger.status).toBe(200);
    expect(stranger.body.data).toMatchObject({
      routed_to: { kind: "bot", id: fallback.id, reason: "none:default_bot" },
      rule: "default_bot",
      attribution: "none",
      target: { kind: "bot", id: fallback.id, name: "Predeterminado" },
      contact_found: false,
      reply_to: null,
    });

    const chat = await api.post(SEND, sendBody(s, customer, { response_handler: "CHATBOT", bot_id: chatbot.id }));
    const promo = await api.post(SEND, sendBody(s, customer, { response_handler: "CAMPAIGN", campaign_id: campaign.id }));
    expect([chat.status, promo.status]).toEqual([200, 200]);
    // As if the channel had sent the CHATBOT one: a reply can quote it by its wamid.
    await (
      await getDb()
    )
      .update(messages)
      .set({ status: "DELIVERED", providerMessageId: `wamid.chat.${chat.body.data.update_id}` })
      .where(eq(messages.updateId, chat.body.data.update_id));

    const latest = await api.post("/api/v1/routing/test", { wa_number: s.number.number, from: `+${customer}`, text: "Me interesa" });
    expect(latest.body.data).toMatchObject({
      routed_to: { kind: "campaign", id: campaign.id, reason: "latest_template:campaign_id" },
      target: { kind: "campaign", id: campaign.id, name: "Navidad" },
      reply_to: { update_id: promo.body.data.update_id, type: "template" },
      contact_found: true,
    });
    expect(latest.body.data.explanation).toContain("«Navidad»");
    const quoted = await api.post("/api/v1/routing/test", {
      wa_number: s.number.number,
      from: customer,
      text: "Sobre el otro",
      context_update_id: chat.body.data.update_id,
    });
    expect(quoted.body.data.routed_to).toEqual({ kind: "bot", id: chatbot.id, reason: "context:response_handler_chatbot" });

    // The tester stored nothing; a real reply is routed where it said.
    const inbound = await api.post("/api/v1/sandbox/inbound", {
      wa_number: s.number.number,
      from: customer,
      type: "text",
      payload: { text: "Me interesa" },
    });
    expect(inbound.status).toBe(200);
    expect((await messageByUpdateId(inbound.body.data.update_id)).routedTo).toEqual(latest.body.data.routed_to);
    const inboundQuoted = await api.post("/api/v1/sandbox/inbound", {
      wa_number: s.number.number,
      from: customer,
      type: "text",
      payload: { text: "Sobre el otro" },
      context_update_id: chat.body.data.update_id,
    });
    expect((await messageByUpdateId(inboundQuoted.body.data.update_id)).routedTo).toEqual(quoted.body.data.routed_to);
  });

  it("says when nobody takes a reply (no default bot)", async () => {
    const team = await createTeam();
    const number = await createNumber(team.id);
    const res = await apiClient(server.url, team.token).post("/api/v1/routing/test", { wa_number: number.number, from: "573001234567" });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ routed_to: { kind: "bot", id: null, reason: "none:no_default_bot" }, target: null });
  });
});
