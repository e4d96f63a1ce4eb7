import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createBot, createCampaign, createTeam } from "../helpers/factories";
import { createBot as createBotService, findBotForTeam, findDefaultBot } from "@/lib/bots/service";
import { createCampaign as createCampaignService, findCampaignForTeam } from "@/lib/campaigns/service";
import type { AuthContext } from "@/lib/auth/context";

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());

const ctxOf = (teamId: number): AuthContext => ({ teamId, actor: { kind: "token", tokenId: 0 } });

describe("GET /api/v1/bots", () => {
  it("lists only the team's bots as {id, name, is_default}, 50 per page by default", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const a = await createBot(team.id, { name: "Asistente", isDefault: true, webhookUrl: "https://x.test/h", webhookSecret: "s" });
    const b = await createBot(team.id, { name: "Ventas" });
    await createBot(other.id);
    const res = await apiClient(server.url, team.token).get("/api/v1/bots");
    expect(res.status).toBe(200);
    expect(typeof res.body.message).toBe("string");
    expect(res.body.data).toEqual([
      { id: a.id, name: "Asistente", is_default: true },
      { id: b.id, name: "Ventas", is_default: false },
    ]);
    expect(res.body.pagination).toEqual({ total_items: 2, items_per_page: 50, current_page: 1, total_pages: 1 });
  });

  it("paginates and validates per_page (max 100)", async () => {
    const team = await createTeam();
    const bots = [];
    for (let i = 0; i < 3; i++) bots.push(await createBot(team.id));
    const api = apiClient(server.url, team.token);
    const page = await api.get("/api/v1/bots?per_page=2&page=2");
    expect(page.body.data.map((x: any) => x.id)).toEqual([bots[2].id]);
    expect(page.body.pagination).toEqual({ total_items: 3, items_per_page: 2, current_page: 2, total_pages: 2 });
    const tooBig = await api.get("/api/v1/bots?per_page=101");
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.message).toBe("El campo per_page no puede ser mayor a la cantidad máxima permitida de 100.");
    const notInt = await api.get("/api/v1/bots?page=uno");
    expect(notInt.status).toBe(422);
    expect(notInt.body.message).toBe("El parámetro page/per_page debe ser un número entero.");
  });

  it("answers 401 without a token, and shows another team nothing", async () => {
    const team = await createTeam();
    await createBot(team.id);
    const anon = await apiClient(server.url).get("/api/v1/bots");
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: "Unauthenticated." });
    const other = await createTeam();
    const res = await apiClient(server.url, other.token).get("/api/v1/bots");
    expect(res.body.data).toEqual([]);
    expect(res.body.pagination.total_items).toBe(0);
  });
});

describe("GET /api/v1/campaigns", () => {
  it("lists only the team's campaigns as {id, name}", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const c = await createCampaign(team.id, { name: "Promo Navidad" });
    await createCampaign(other.id);
    const res = await apiClient(server.url, team.token).get("/api/v1/campaigns");
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([{ id: c.id, name: "Promo Navidad" }]);
    expect(res.body.pagination).toEqual({ total_items: 1, items_per_page: 50, current_page: 1, total_pages: 1 });
    const tooBig = await apiClient(server.url, team.token).get("/api/v1/campaigns?per_page=500");
    expect(tooBig.status).toBe(422);
    expect(tooBig.body.message).toBe("El campo per_page no puede ser mayor a la cantidad máxima permitida de 100.");
  });

  it("answers 401 without a token, and shows another team nothing", async () => {
    const team = await createTeam();
    await createCampaign(team.id);
    expect((await apiClient(server.url).get("/api/v1/campaigns")).status).toBe(401);
    const other = await createTeam();
    expect((await apiClient(server.url, other.token).get("/api/v1/campaigns")).body.data).toEqual([]);
  });
});

describe("bot and campaign services (admin CLI, send endpoint)", () => {
  it("createBot keeps one default per team and returns the webhook secret once", async () => {
    const team = await createTeam();
    const first = await createBotService({ ctx: ctxOf(team.id), input: { name: "Uno", is_default: true } });
    expect(first).toEqual({
      id: expect.any(Number),
      name: "Uno",
      is_default: true,
      webhook_url: null,
      has_webhook_secret: false,
      created_at: expect.any(String),
      webhook_secret: null,
    });
    const second = await createBotService({
      ctx: ctxOf(team.id),
      input: { name: "Dos", is_default: true, webhook_url: "https://hooks.example.com/bot" },
    });
    expect(second.webhook_secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await findDefaultBot(team.id))?.id).toBe(second.id);
    const list = await apiClient(server.url, team.token).get("/api/v1/bots");
    expect(list.body.data).toEqual([
      { id: first.id, name: "Uno", is_default: false },
      { id: second.id, name: "Dos", is_default: true },
    ]);
    await expect(createBotService({ ctx: ctxOf(team.id), input: { name: " " } })).rejects.toThrow("El campo name no puede estar vacío.");
    await expect(createBotService({ ctx: ctxOf(team.id), input: { name: "x", webhook_url: "ftp://x" } })).rejects.toThrow(
      "El campo webhook_url debe ser una URL http(s) válida.",
    );
  });

  it("keeps a single default bot when several defaults are created in parallel", async () => {
    const team = await createTeam();
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => createBotService({ ctx: ctxOf(team.id), input: { name: `B${i}`, is_default: true } })),
    );
    const list = await apiClient(server.url, team.token).get("/api/v1/bots");
    expect(list.body.data).toHaveLength(6);
    expect(list.body.data.filter((b: any) => b.is_default)).toHaveLength(1);
  });

  it("finders answer undefined for other teams' and missing ids", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const bot = await createBot(team.id);
    const campaign = await createCampaignService({ ctx: ctxOf(team.id), input: { name: "Promo", webhook_url: "http://c.test/x" } });
    expect(campaign).toMatchObject({ name: "Promo", webhook_url: "http://c.test/x", webhook_secret: expect.any(String) });
    expect((await findBotForTeam(team.id, bot.id))?.id).toBe(bot.id);
    expect(await findBotForTeam(other.id, bot.id)).toBeUndefined();
    expect(await findBotForTeam(team.id, 2147483647)).toBeUndefined();
    expect(await findBotForTeam(team.id, 99999999999)).toBeUndefined();
    expect((await findCampaignForTeam(team.id, campaign.id))?.name).toBe("Promo");
    expect(await findCampaignForTeam(other.id, campaign.id)).toBeUndefined();
    expect(await findCampaignForTeam(team.id, -1)).toBeUndefined();
    expect(await findDefaultBot(other.id)).toBeUndefined();
  });
});
