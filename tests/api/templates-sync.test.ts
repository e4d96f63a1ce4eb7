import { and, asc, count, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, templateChanges, templates, webhookDeadLetters } from "@/db/schema";
import { syncDueTemplates } from "@/lib/templates/sync-service";
import { createToken } from "@/lib/auth/tokens";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { agentSession } from "../helpers/send-factories";
import { createNumber, createTeam, createTemplate, textTemplateComponents } from "../helpers/factories";
import { createCloudNumber } from "../helpers/delivery-factories";
import { graphError, startFakeGraph, type FakeGraph } from "../fakes/graph";
import type { TemplateComponent } from "@/lib/templates/schemas";

/**
 * The sync with Meta's template lists (docs/features/templates-and-number-health.md): every page
 * of GET /{waba-id}/message_templates read from the fake Graph, every status kept, each change in
 * the template's history with its event, what Meta no longer lists marked DELETED, a malformed
 * item set aside beside its applied neighbours, a bad token answered per account, and a second
 * sync that finds nothing new writes nothing.
 */
let server: TestServer;
let graph: FakeGraph;
beforeAll(async () => {
  graph = await startFakeGraph();
  process.env.GRAPH_API_BASE_URL = graph.url;
  server = await startServer();
});
afterAll(async () => {
  await Promise.all([server.close(), graph.close()]);
});

const SYNC = "/api/v1/message_templates/sync";
let metaSeq = 0;

/** A template as Meta's list gives it (the fields the sync asks for). */
function metaTemplate(name: string, extra: Record<string, unknown> = {}) {
  return {
    id: String(7_100_000_000 + ++metaSeq),
    name,
    language: "es_CO",
    status: "APPROVED",
    category: "UTILITY",
    quality_score: { score: "GREEN", date: 1_796_000_000 },
    rejected_reason: "NONE",
    components: [
      { type: "HEADER", format: "TEXT", text: "Hola {{1}}", example: { header_text: ["Ana"] } },
      { type: "BODY", text: "Tu pedido {{1}} llega el {{2}}.", example: { body_text: [["A-1", "lunes"]] } },
      { type: "FOOTER", text: "Tienda" },
      { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Gracias" }] },
    ],
    ...extra,
  };
}

/** metaTemplate's components as the sync stores them (a quick reply's payload is its text). */
const storedComponents: TemplateComponent[] = [
  { type: "HEADER", format: "TEXT", text: "Hola {{1}}", example: { header_text: ["Ana"] } },
  { type: "BODY", text: "Tu pedido {{1}} llega el {{2}}.", example: { body_text: [["A-1", "lunes"]] } },
  { type: "FOOTER", text: "Tienda" },
  { type: "BUTTONS", buttons: [{ type: "QUICK_REPLY", text: "Gracias", payload: "Gracias" }] },
];

async function cloudTeam() {
  const team = await createTeam();
  const number = await createCloudNumber(team.id);
  const owner = await agentSession(team.id, { role: "owner" });
  const api = apiClient(server.url);
  const sync = (query = "") => api.post(`${SYNC}${query}`, undefined, owner.headers);
  return { team, number, owner, api, sync };
}

async function rowsOf(teamId: number) {
  const db = await getDb();
  return db.select().from(templates).where(eq(templates.teamId, teamId)).orderBy(asc(templates.name));
}
async function historyOf(teamId: number) {
  const db = await getDb();
  return db.select().from(templateChanges).where(eq(templateChanges.teamId, teamId)).orderBy(asc(templateChanges.id));
}
async function templateEvents(teamId: number) {
  const db = await getDb();
  return db
    .select()
    .from(events)
    .where(and(eq(events.teamId, teamId), eq(events.type, "template.updated")))
    .orderBy(asc(events.id));
}
async function deadLettersOf(teamId: number) {
  const db = await getDb();
  return db
    .select()
    .from(webhookDeadLetters)
    .where(and(eq(webhookDeadLetters.teamId, teamId), eq(webhookDeadLetters.source, "template_sync")));
}

describe("POST /api/v1/message_templates/sync", () => {
  it("reads every page, keeps every status, updates what changed and marks deleted what Meta no longer lists", async () => {
    const { team, number, sync, api, owner } = await cloudTeam();
    const sandbox = await createNumber(team.id);
    // Ours before the sync: one Meta now pauses, one it no longer lists, one team-wide (the sandbox's).
    const paused = await createTemplate(team.id, {
      name: "aviso_pausado",
      waNumberId: number.id,
      externalId: "7000000001",
      components: storedComponents,
    });
    const gone = await createTemplate(team.id, { name: "promo_vieja", waNumberId: number.id, externalId: "7000000002" });
    const teamWide = await createTemplate(team.id, { name: "solo_sandbox" });
    graph.setAccountTemplates(
      number.businessAccountId,
      [
        metaTemplate("aprobada"),
        metaTemplate("pendiente", { status: "PENDING", quality_score: { score: "UNKNOWN" } }),
        metaTemplate("rechazada", { status: "REJECTED", rejected_reason: "INVALID_FORMAT", quality_score: null }),
        metaTemplate("aviso_pausado", { id: "7000000001", status: "PAUSED", quality_score: { score: "RED" } }),
        metaTemplate("deshabilitada", { status: "DISABLED", category: "MARKETING" }),
      ],
      { token: number.secrets.accessToken, pageSize: 2 },
    );

    const res = await sync();
    expect(res.status).toBe(200);
    expect(res.body.message).toBe("Sincronización con Meta terminada.");
    expect(res.body.data.accounts).toEqual([
      {
        business_account_id: number.businessAccountId,
        wa_numbers: [number.number],
        outcome: "synced",
        skipped_reason: null,
        fetched: 5,
        created: 4,
        updated: 1,
        deleted: 1,
        set_aside: 0,
        error: null,
      },
      {
        business_account_id: null,
        wa_numbers: [sandbox.number],
        outcome: "skipped",
        skipped_reason: "sandbox",
        fetched: 0,
        created: 0,
        updated: 0,
        deleted: 0,
        set_aside: 0,
        error: null,
      },
    ]);

    // Three pages, each with the number's token; the next one by Meta's `after` cursor.
    const calls = graph.templateListCalls(number.businessAccountId);
    expect(calls).toHaveLength(3);
    expect(calls.every((c) => c.authorization === `Bearer ${number.secrets.accessToken}`)).toBe(true);

    const rows = await rowsOf(team.id);
    const by = (name: string) => rows.find((r) => r.name === name)!;
    expect(rows.map((r) => [r.name, r.status, r.rejectedReason, r.qualityScore, r.category])).toEqual([
      ["aprobada", "APPROVED", "NONE", "GREEN", "UTILITY"],
      ["aviso_pausado", "PAUSED", "NONE", "RED", "UTILITY"],
      ["deshabilitada", "DISABLED", "NONE", "GREEN", "MARKETING"],
      ["pendiente", "PENDING", "NONE", "UNKNOWN", "UTILITY"],
      ["promo_vieja", "DELETED", "NONE", "UNKNOWN", "UTILITY"],
      ["rechazada", "REJECTED", "INVALID_FORMAT", "UNKNOWN", "UTILITY"],
      ["solo_sandbox", "APPROVED", "NONE", "UNKNOWN", "UTILITY"],
    ]);
    expect(by("aprobada")).toMatchObject({ waNumberId: number.id, externalId: expect.stringMatching(/^71/) });
    expect(by("aprobada").components).toEqual(storedComponents);
    // Never deleted: the row stays, marked.
    expect(by("promo_vieja").id).toBe(gone.id);
    expect(by("solo_sandbox").id).toBe(teamWide.id);

    const history = await historyOf(team.id);
    expect(history.every((h) => h.source === "sync" && h.metaAt !== null)).toBe(true);
    const named = (id: number) => history.filter((h) => h.templateId === id).map((h) => [h.field, h.previous, h.value, h.reason]);
    expect(named(by("rechazada").id)).toEqual([["status", null, "REJECTED", "INVALID_FORMAT"]]);
    expect(named(paused.id)).toEqual([
      ["status", "APPROVED", "PAUSED", null],
      ["quality", "UNKNOWN", "RED", null],
    ]);
    expect(named(gone.id)).toEqual([["status", "APPROVED", "DELETED", null]]);
    expect(named(teamWide.id)).toEqual([]);

    // One event per change, as the webhooks write them.
    const evs = await templateEvents(team.id);
    expect(evs).toHaveLength(history.length);
    expect(evs.map((e) => e.data)).toContainEqual(
      expect.objectContaining({
        name: "promo_vieja",
        status: "DELETED",
        sendable: false,
        change: expect.objectContaining({ value: "DELETED" }),
      }),
    );

    // The list shows every status, filtered by one, with the new fields.
    const rejected = await api.get("/api/v1/message_templates?status=rejected", owner.headers);
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toEqual([
      expect.objectContaining({
        name: "rechazada",
        status: "REJECTED",
        rejected_reason: "INVALID_FORMAT",
        quality_score: "UNKNOWN",
        wa_number: number.number,
        updated_at: expect.any(String),
      }),
    ]);
    // The history of one template, newest first.
    const changes = await api.get(`/api/v1/message_templates/7000000001/changes`, owner.headers);
    expect(changes.status).toBe(200);
    expect(changes.body.data.map((c: { field: string; value: string; source: string }) => [c.field, c.value, c.source])).toEqual([
      ["quality", "RED", "sync"],
      ["status", "PAUSED", "sync"],
    ]);
    expect(changes.body.pagination).toEqual({ total_items: 2, items_per_page: 50, current_page: 1, total_pages: 1 });

    // The account's last sync, and who asked.
    const state = await api.get(SYNC, owner.headers);
    expect(state.body.data).toEqual([
      {
        business_account_id: number.businessAccountId,
        running: false,
        started_at: expect.any(String),
        finished_at: expect.any(String),
        triggered_by: owner.agent.name,
        last_result: res.body.data.accounts[0],
      },
    ]);
  });

  it("asks Meta for the documented fields and follows its cursors on the configured Graph URL", async () => {
    const { number, sync } = await cloudTeam();
    graph.setAccountTemplates(
      number.businessAccountId,
      ["uno", "dos", "tres"].map((n) => metaTemplate(n)),
      { pageSize: 2 },
    );
    expect((await sync()).body.data.accounts[0]).toMatchObject({ fetched: 3, created: 3 });
    const [first, second, ...rest] = graph.templateListCalls(number.businessAccountId).map((c) => c.url);
    expect(rest).toEqual([]);
    expect(first.searchParams.get("fields")?.split(",").sort()).toEqual([
      "category",
      "components",
      "id",
      "language",
      "name",
      "quality_score",
      "rejected_reason",
      "status",
    ]);
    expect(first.searchParams.get("after")).toBeNull();
    // The cursor Meta gave, opaque: not the offset, nor a page number.
    expect(second.searchParams.get("after")).toMatch(/^[A-Za-z0-9_-]{6,}$/);
    expect(second.pathname).toBe(first.pathname);
  });

  it("sets a malformed item aside with its reason, applies its neighbours, and does not take it for deleted", async () => {
    const { team, number, sync } = await cloudTeam();
    const broken = await createTemplate(team.id, { name: "rota", waNumberId: number.id, externalId: "7000000100" });
    const items = [
      metaTemplate("antes"),
      metaTemplate("rota", { id: "7000000100", components: { type: "BODY" } }),
      metaTemplate("estado_raro", { status: "SOMETHING_NEW" }),
      metaTemplate("ubicacion", {
        components: [
          { type: "HEADER", format: "LOCATION" },
          { type: "BODY", text: "Aquí" },
        ],
      }),
      "not a template",
      metaTemplate("despues"),
    ];
    graph.setAccountTemplates(number.businessAccountId, items, { pageSize: 4 });

    const res = await sync();
    expect(res.status).toBe(200);
    expect(res.body.data.accounts[0]).toMatchObject({ outcome: "synced", fetched: 6, created: 2, updated: 0, deleted: 0, set_aside: 4 });
    const rows = await rowsOf(team.id);
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ["antes", "APPROVED"],
      ["despues", "APPROVED"],
      ["rota", "APPROVED"],
    ]);
    expect((await historyOf(team.id)).filter((h) => h.templateId === broken.id)).toEqual([]);

    const dead = await deadLettersOf(team.id);
    expect(dead).toHaveLength(4);
    expect(dead.every((d) => d.kind === "rejected" && d.waNumberId === number.id)).toBe(true);
    const reasons = dead.map((d) => d.reason);
    expect(reasons[0]).toMatch(/^template_sync WABA\S+: estructura no soportada: components /);
    expect(reasons[1]).toContain("estado desconocido: SOMETHING_NEW");
    expect(reasons[2]).toContain("components.0.format");
    expect(JSON.parse(dead[1].raw)).toMatchObject({ name: "estado_raro" });

    // Meta keeps listing them: kept once, not once per sync.
    const again = await sync();
    expect(again.body.data.accounts[0]).toMatchObject({ created: 0, updated: 0, set_aside: 4 });
    expect(await deadLettersOf(team.id)).toHaveLength(4);
  });

  it("answers a bad token (Meta's 190) and a failed page for their accounts only, and syncs the others", async () => {
    const { team, number, sync } = await cloudTeam();
    const other = await createCloudNumber(team.id);
    const third = await createCloudNumber(team.id);
    const kept = await createTemplate(team.id, { name: "sigue_igual", waNumberId: number.id, externalId: "7000000200" });
    const kept3 = await createTemplate(team.id, { name: "sigue_igual_3", waNumberId: third.id, externalId: "7000000201" });
    graph.setAccountTemplates(number.businessAccountId, [metaTemplate("nueva")], { token: "EAAG-a-token-Meta-revoked" });
    graph.setAccountTemplates(other.businessAccountId, [metaTemplate("de_la_otra")], { token: other.secrets.accessToken });
    graph.setAccountTemplates(third.businessAccountId, [metaTemplate("p1"), metaTemplate("p2"), metaTemplate("p3")], {
      pageSize: 2,
      failPage: { page: 1, answer: graphError(500, 2, "Service temporarily unavailable") },
    });

    const res = await sync();
    expect(res.status).toBe(200);
    const [first, second, third_] = res.body.data.accounts;
    expect(first).toMatchObject({
      business_account_id: number.businessAccountId,
      outcome: "failed",
      fetched: 0,
      created: 0,
      deleted: 0,
      error: { code: 190, message: expect.stringContaining("Meta rechazó el token de acceso de la cuenta (código 190)") },
    });
    expect(first.error.message).toContain("Error validating access token");
    expect(second).toMatchObject({ business_account_id: other.businessAccountId, outcome: "synced", created: 1, error: null });
    expect(third_).toMatchObject({ business_account_id: third.businessAccountId, outcome: "failed", error: { code: 2 } });

    // Nothing is taken for deleted from a list not read to its end.
    const rows = await rowsOf(team.id);
    expect(rows.find((r) => r.id === kept.id)?.status).toBe("APPROVED");
    expect(rows.find((r) => r.id === kept3.id)?.status).toBe("APPROVED");
    expect(rows.map((r) => r.name)).toEqual(["de_la_otra", "sigue_igual", "sigue_igual_3"]);
  });

  it("writes nothing the second time when Meta changed nothing", async () => {
    const { team, number, sync } = await cloudTeam();
    await createTemplate(team.id, { name: "antigua", waNumberId: number.id, externalId: "7000000300", components: textTemplateComponents });
    graph.setAccountTemplates(
      number.businessAccountId,
      [
        metaTemplate("antigua", { id: "7000000300", status: "PAUSED" }),
        metaTemplate("con_boton_url", {
          components: [
            { type: "BODY", text: "Hola" },
            {
              type: "BUTTONS",
              buttons: [
                { type: "PHONE_NUMBER", text: "Llamar", phone_number: "+5215555555555" },
                { type: "URL", text: "Ver", url: "https://tienda.test/p/{{1}}", example: ["https://tienda.test/p/1"] },
              ],
            },
          ],
        }),
        metaTemplate("rechazada", { status: "REJECTED", rejected_reason: "TAG_CONTENT_MISMATCH" }),
      ],
      { pageSize: 2 },
    );
    const first = await sync();
    expect(first.body.data.accounts[0]).toMatchObject({ created: 2, updated: 1 });
    const before = { rows: await rowsOf(team.id), history: await historyOf(team.id), events: await templateEvents(team.id) };
    expect(before.history.length).toBeGreaterThan(0);

    const second = await sync();
    expect(second.body.data.accounts[0]).toMatchObject({ outcome: "synced", fetched: 3, created: 0, updated: 0, deleted: 0, set_aside: 0 });
    expect(await rowsOf(team.id)).toEqual(before.rows);
    expect(await historyOf(team.id)).toEqual(before.history);
    expect(await templateEvents(team.id)).toEqual(before.events);
  });

  it("records an edit of the content and a reappearance, and keeps a pause's reason Meta's list does not repeat", async () => {
    const { team, number, sync } = await cloudTeam();
    const t = metaTemplate("editable");
    graph.setAccountTemplates(number.businessAccountId, [t]);
    await sync();
    const [row] = await rowsOf(team.id);
    // Meta's webhook told why it paused it; its list says only PAUSED.
    const db = await getDb();
    await db.update(templates).set({ status: "PAUSED", rejectedReason: "Calidad baja" }).where(eq(templates.id, row.id));
    const edited = { ...t, status: "PAUSED", components: [...t.components.slice(0, 1), { type: "BODY", text: "Texto nuevo {{1}}." }] };
    graph.setAccountTemplates(number.businessAccountId, [edited]);
    expect((await sync()).body.data.accounts[0]).toMatchObject({ updated: 1 });
    const [after] = await rowsOf(team.id);
    expect(after).toMatchObject({ status: "PAUSED", rejectedReason: "Calidad baja" });
    expect(after.components.find((c) => c.type === "BODY")).toEqual({ type: "BODY", text: "Texto nuevo {{1}}." });

    // Gone, then listed again: DELETED, then back to what Meta says.
    graph.setAccountTemplates(number.businessAccountId, []);
    expect((await sync()).body.data.accounts[0]).toMatchObject({ deleted: 1 });
    graph.setAccountTemplates(number.businessAccountId, [{ ...edited, status: "APPROVED" }]);
    expect((await sync()).body.data.accounts[0]).toMatchObject({ updated: 1 });
    const history = (await historyOf(team.id)).map((h) => [h.field, h.previous, h.value]);
    expect(history).toEqual([
      ["status", null, "APPROVED"],
      ["components", null, "EDITED"],
      ["status", "PAUSED", "DELETED"],
      ["status", "DELETED", "APPROVED"],
    ]);
  });

  it("names one account with business_account_id, and refuses one that is not the team's", async () => {
    const { team, number, sync } = await cloudTeam();
    const other = await createCloudNumber(team.id);
    graph.setAccountTemplates(number.businessAccountId, [metaTemplate("una")]);
    graph.setAccountTemplates(other.businessAccountId, [metaTemplate("otra")]);
    const one = await sync(`?business_account_id=${number.businessAccountId}`);
    expect(one.body.data.accounts.map((a: { business_account_id: string }) => a.business_account_id)).toEqual([number.businessAccountId]);
    const foreign = await sync("?business_account_id=WABA-DE-OTRO");
    expect(foreign.status).toBe(422);
    expect(foreign.body).toEqual({
      message: "La cuenta de WhatsApp Business no es de ningún número del equipo.",
      errors: { business_account_id: ["La cuenta de WhatsApp Business no es de ningún número del equipo."] },
    });
  });

  it("is for owners, admins and the webhooks_admin scope", async () => {
    const { team, number, api } = await cloudTeam();
    graph.setAccountTemplates(number.businessAccountId, []);
    const status = async (headers: Record<string, string>) => (await api.post(SYNC, undefined, headers)).status;
    expect(await status((await agentSession(team.id, { role: "admin" })).headers)).toBe(200);
    expect(await status((await agentSession(team.id, { role: "supervisor" })).headers)).toBe(403);
    expect(await status((await agentSession(team.id, { role: "agent" })).headers)).toBe(403);
    const token = async (scope: "webhooks_admin" | "send") =>
      `Bearer ${(await createToken({ input: { teamId: team.id, name: scope, scopes: [scope] } })).token}`;
    expect(await status({ authorization: await token("webhooks_admin") })).toBe(200);
    const refused = await api.post(SYNC, undefined, { authorization: await token("send") });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe("El token no tiene el permiso necesario: webhooks_admin.");
  });
});

describe("GET /api/v1/message_templates/{templateId}/changes", () => {
  it("answers the team's own template only: another team's is a 404, as a missing one", async () => {
    const a = await createTeam();
    const b = await createTeam();
    const own = await createTemplate(a.id);
    const synced = await createTemplate(a.id, { externalId: "7000000400" });
    const theirs = await createTemplate(b.id, { externalId: "7000000401" });
    const theirsLocal = await createTemplate(b.id);
    const api = apiClient(server.url, a.token);
    expect((await api.get(`/api/v1/message_templates/${own.id}/changes`)).body).toEqual({
      message: "Cambios de la plantilla obtenidos correctamente.",
      data: [],
      pagination: { total_items: 0, items_per_page: 50, current_page: 1, total_pages: 0 },
    });
    expect((await api.get(`/api/v1/message_templates/7000000400/changes`)).status).toBe(200);
    // A synced template is named by Meta's id, as the list shows it, not by ours.
    expect((await api.get(`/api/v1/message_templates/${synced.id}/changes`)).status).toBe(404);
    for (const id of ["7000000401", String(theirsLocal.id), "2147483000", "no-such", "a%20b"]) {
      const res = await api.get(`/api/v1/message_templates/${id}/changes`);
      expect(res.status, id).toBe(404);
      expect(res.body, id).toEqual({ message: "La plantilla no existe." });
    }
    expect(theirs.id).toBeGreaterThan(0);
  });
});

describe("the scheduled sync (a worker chore)", () => {
  it("syncs each due account once per TEMPLATE_SYNC_INTERVAL_MIN, and not at all with 0", async () => {
    const { team, number, api, owner } = await cloudTeam();
    const sandboxOnly = await createTeam();
    await createNumber(sandboxOnly.id);
    graph.setAccountTemplates(number.businessAccountId, [metaTemplate("programada")]);
    const saved = process.env.TEMPLATE_SYNC_INTERVAL_MIN;
    try {
      process.env.TEMPLATE_SYNC_INTERVAL_MIN = "0";
      expect(await syncDueTemplates([team.id])).toBe(0);
      process.env.TEMPLATE_SYNC_INTERVAL_MIN = "60";
      expect(await syncDueTemplates([team.id, sandboxOnly.id])).toBe(1);
      expect((await rowsOf(team.id)).map((r) => r.name)).toEqual(["programada"]);
      // Synced just now: not due again within the interval, however many workers ask.
      expect(await Promise.all([syncDueTemplates([team.id]), syncDueTemplates([team.id])])).toEqual([0, 0]);
      const state = await api.get(SYNC, owner.headers);
      expect(state.body.data).toEqual([
        expect.objectContaining({ triggered_by: "schedule", running: false, last_result: expect.objectContaining({ created: 1 }) }),
      ]);
    } finally {
      process.env.TEMPLATE_SYNC_INTERVAL_MIN = saved;
    }
    const db = await getDb();
    const [{ n }] = await db.select({ n: count() }).from(templates).where(eq(templates.teamId, sandboxOnly.id));
    expect(n).toBe(0);
  });
});
