import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { createTeam } from "../helpers/factories";
import { createCloudNumber } from "../helpers/delivery-factories";
import { startFakeGraph, type FakeGraph } from "../fakes/graph";
import { getDb } from "@/db/client";
import { templates } from "@/db/schema";
import { registry } from "@/lib/admin/registry";

let graph: FakeGraph;
beforeAll(async () => {
  graph = await startFakeGraph();
  process.env.GRAPH_API_BASE_URL = graph.url;
});
afterAll(() => graph.close());

const tpl = (name: string, extra: Record<string, unknown> = {}) => ({
  id: `ext_${name}`,
  name,
  status: "APPROVED",
  category: "UTILITY",
  language: "es_MX",
  components: [
    { type: "HEADER", format: "IMAGE", example: { header_handle: ["https://scontent.example.com/h.jpg"] } },
    { type: "BODY", text: "Hola {{1}}, tu pedido {{2}} está listo.", example: { body_text: [["Ana", "A-1"]] } },
    { type: "FOOTER", text: "Tienda" },
    {
      type: "BUTTONS",
      buttons: [
        { type: "QUICK_REPLY", text: "Gracias" },
        { type: "PHONE_NUMBER", text: "Llamar", phone_number: "+5215555555555" },
      ],
    },
  ],
  ...extra,
});

describe("admin templates:sync", () => {
  it("imports every page of templates, whatever their status, into the number's team and reports what it cannot hold", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    graph.setTemplatePages([
      [tpl("pedido_listo"), tpl("pendiente", { status: "PENDING" })],
      [
        tpl("ubicacion", {
          components: [
            { type: "HEADER", format: "LOCATION" },
            { type: "BODY", text: "Aquí" },
          ],
        }),
        tpl("recordatorio"),
      ],
    ]);
    const result = await registry["templates:sync"].run({ number: `+${number.number}` });
    expect(result.imported).toEqual(["pedido_listo/es_MX", "pendiente/es_MX", "recordatorio/es_MX"]);
    expect((result.skipped as any[]).map((s) => s.name)).toEqual(["ubicacion"]);
    // The API's counts beside what it printed before (POST /api/v1/message_templates/sync's answer).
    expect(result.account).toMatchObject({ outcome: "synced", fetched: 4, created: 3, set_aside: 1 });
    const listCalls = graph.requests.filter((r) => r.path.endsWith("/message_templates"));
    expect(listCalls).toHaveLength(2);
    expect(listCalls[0].headers.authorization).toBe(`Bearer ${number.secrets.accessToken}`);

    const db = await getDb();
    const [row] = await db
      .select()
      .from(templates)
      .where(and(eq(templates.teamId, team.id), eq(templates.name, "pedido_listo")));
    expect(row).toMatchObject({ externalId: "ext_pedido_listo", language: "es_MX", status: "APPROVED", waNumberId: number.id });
    expect(row.components.find((c) => c.type === "BUTTONS")).toEqual({
      type: "BUTTONS",
      buttons: [{ type: "QUICK_REPLY", text: "Gracias", payload: "Gracias" }],
    });

    const [pending] = await db
      .select()
      .from(templates)
      .where(and(eq(templates.teamId, team.id), eq(templates.name, "pendiente")));
    expect(pending.status).toBe("PENDING");

    // Running it again refreshes instead of duplicating.
    const again = await registry["templates:sync"].run({ number: number.number });
    expect(again.account).toMatchObject({ created: 0, updated: 0 });
    expect(await db.select().from(templates).where(eq(templates.teamId, team.id))).toHaveLength(3);
  });

  it("parses each Graph template with its schema: a malformed one is reported with its reason, the rest imported, unknown fields kept", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    graph.setTemplatePages([
      [
        tpl("componentes_rotos", { components: { type: "BODY" } }),
        tpl("boton_sin_tipo", {
          components: [
            { type: "BODY", text: "Hola" },
            { type: "BUTTONS", buttons: [{ text: "Sí" }] },
          ],
        }),
        { id: "ext_sin_nombre", name: 42, status: "APPROVED", language: "es" },
        "not a template",
        tpl("con_campos_nuevos", { parameter_format: "POSITIONAL", sub_category: "ORDER_DETAILS" }),
      ],
    ]);
    const result = await registry["templates:sync"].run({ number: number.number });
    expect(result.imported).toEqual(["con_campos_nuevos/es_MX"]);
    const skipped = result.skipped as { name: string; reason: string }[];
    expect(skipped.map((s) => s.name)).toEqual(["componentes_rotos", "boton_sin_tipo", "", ""]);
    expect(skipped.every((s) => s.reason.startsWith("estructura no soportada: "))).toBe(true);
    expect(result.account).toMatchObject({ set_aside: 4, created: 1 });
    expect(skipped[0].reason).toContain("components");
    expect(skipped[1].reason).toContain("components.1.buttons.0.type");
  });

  it("keeps Meta's position as index on a stored button that no longer sits at it", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const buttons = (list: Record<string, unknown>[]) =>
      tpl(`botones_${list.map((b) => String(b.type).toLowerCase()).join("_")}`, {
        components: [
          { type: "BODY", text: "Hola" },
          { type: "BUTTONS", buttons: list },
        ],
      });
    const phone = { type: "PHONE_NUMBER", text: "Llamar", phone_number: "+5215555555555" };
    const url = { type: "URL", text: "Seguir", url: "https://tienda.test/pedidos/{{1}}" };
    const reply = { type: "QUICK_REPLY", text: "Gracias" };
    const code = { type: "COPY_CODE", example: "PROMO10" };
    graph.setTemplatePages([[buttons([phone, url, reply]), buttons([url, code, reply]), buttons([url, reply, phone])]]);
    const result = await registry["templates:sync"].run({ number: number.number });
    expect(result.skipped).toEqual([]);

    const db = await getDb();
    const stored = async (name: string) => {
      const [row] = await db
        .select()
        .from(templates)
        .where(and(eq(templates.teamId, team.id), eq(templates.name, name)));
      return row.components.find((c) => c.type === "BUTTONS");
    };
    expect(await stored("botones_phone_number_url_quick_reply")).toEqual({
      type: "BUTTONS",
      buttons: [
        { type: "URL", text: "Seguir", url: "https://tienda.test/pedidos/{{1}}", index: 1 },
        { type: "QUICK_REPLY", text: "Gracias", payload: "Gracias", index: 2 },
      ],
    });
    expect(await stored("botones_url_copy_code_quick_reply")).toEqual({
      type: "BUTTONS",
      buttons: [
        { type: "URL", text: "Seguir", url: "https://tienda.test/pedidos/{{1}}" },
        { type: "QUICK_REPLY", text: "Gracias", payload: "Gracias", index: 2 },
      ],
    });
    // Nothing skipped before them: the positions are Meta's, no index is stored.
    expect(await stored("botones_url_quick_reply_phone_number")).toEqual({
      type: "BUTTONS",
      buttons: [
        { type: "URL", text: "Seguir", url: "https://tienda.test/pedidos/{{1}}" },
        { type: "QUICK_REPLY", text: "Gracias", payload: "Gracias" },
      ],
    });
  });

  it("refuses an unknown number", async () => {
    await expect(registry["templates:sync"].run({ number: "19999999999" })).rejects.toThrow("El número de WhatsApp no está registrado.");
  });
});
