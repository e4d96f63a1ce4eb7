import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createTeam, createTemplate } from "../helpers/factories";
import { messageByUpdateId, urlButtonComponents, urlButtonTeam } from "../helpers/send-factories";
import { createCloudNumber, waitFor, messageById } from "../helpers/delivery-factories";
import { startFakeGraph, type FakeGraph } from "../fakes/graph";
import { createWorker } from "@/lib/delivery/worker";
import type { TemplateComponent } from "@/lib/templates/schemas";
import { buttonParamRequired, unknownButtonIndex } from "@/lib/messages/send-params";
import { duplicateButtonIndex } from "@/lib/messages/send-schemas";
import { registry } from "@/lib/admin/registry";

const SEND = "/api/v1/message_templates/send";
const BULK = "/api/v1/message_templates/send_bulk";

let server: TestServer;
let graph: FakeGraph;
beforeAll(async () => {
  graph = await startFakeGraph();
  process.env.GRAPH_API_BASE_URL = graph.url;
  process.env.GRAPH_API_VERSION = "v21.0";
  server = await startServer();
});
afterAll(async () => {
  await server.close();
  await graph.close();
});

/** A team whose template has a dynamic URL button (urlButtonComponents), and a valid send body for it. */
async function setup() {
  const { team, number, template } = await urlButtonTeam();
  const body = (extra: Record<string, unknown> = {}) => ({
    wa_number: number.number,
    destination: "573001112233",
    template_name: template.name,
    body_params: [{ key: "1", value: "B-77" }],
    ...extra,
  });
  return { team, number, template, body, api: apiClient(server.url, team.token) };
}

/** Runs a delivery worker for the team until the message is SENDED to the fake Graph API. */
async function sendThroughWorker(teamId: number, messageId: number) {
  const worker = createWorker({ pollMs: 50, leaseMs: 2000, backoffBaseMs: 20, backoffCapMs: 80, teamIds: [teamId] });
  worker.start();
  try {
    await waitFor(
      () => messageById(messageId),
      (m) => m.status === "SENDED",
    );
  } finally {
    await worker.stop();
  }
}

describe("button_params: URL buttons with a variable", () => {
  it("refuses a send that leaves the dynamic URL button without its value, with the exact message", async () => {
    const s = await setup();
    const res = await s.api.post(SEND, s.body());
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual({ button_params: [buttonParamRequired(1)] });
    expect(buttonParamRequired(1)).toBe(
      "El atributo button_params es requerido: el botón 1 de la plantilla tiene una URL con la variable {{1}}.",
    );
  });

  it("refuses a value for a button that is not a dynamic URL, and a repeated index", async () => {
    const s = await setup();
    const wrong = await s.api.post(SEND, s.body({ button_params: [{ index: 2, value: "x" }] }));
    expect(wrong.status).toBe(422);
    expect(wrong.body.errors).toEqual({ "button_params.0.index": [unknownButtonIndex(2)] });
    const twice = await s.api.post(
      SEND,
      s.body({
        button_params: [
          { index: 1, value: "a" },
          { index: 1, value: "b" },
        ],
      }),
    );
    expect(twice.status).toBe(422);
    expect(twice.body.errors["button_params.1.index"]).toEqual([duplicateButtonIndex(1)]);
  });

  it("stores the real link in the payload and sends Meta the url button component", async () => {
    const s = await setup();
    const res = await s.api.post(SEND, s.body({ button_params: [{ index: "1", value: "B-77" }] }));
    expect(res.status).toBe(200);
    const row = await messageByUpdateId(res.body.data.update_id);
    const buttons = (row.payload as { components: TemplateComponent[] }).components.find((c) => c.type === "BUTTONS");
    expect(buttons).toMatchObject({
      buttons: [
        { type: "QUICK_REPLY" },
        { type: "URL", url: "https://tienda.test/pedidos/B-77" },
        { type: "URL", url: "https://tienda.test/" },
      ],
    });
    expect(row.sendParams).toMatchObject({ button_params: [{ index: 1, value: "B-77" }] });

    // The history shows the link as sent, not %7B%7B1%7D%7D.
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const hist = await s.api.get(
      `/api/v1/messages/whatsapp/history?wa_number=${s.number.number}&customer_source=573001112233&from_date=${day(-1)}&to_date=${day(1)}`,
    );
    expect(hist.status).toBe(200);
    expect(JSON.stringify(hist.body)).toContain("https://tienda.test/pedidos/B-77");

    await sendThroughWorker(s.team.id, row.id);
    const [sent] = graph.sends(s.number.phoneNumberId);
    expect(sent.body.template.components).toEqual([
      { type: "body", parameters: [{ type: "text", text: "B-77" }] },
      { type: "button", sub_type: "quick_reply", index: "0", parameters: [{ type: "payload", payload: "THANKS" }] },
      { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "B-77" }] },
    ]);
  });

  it("checks each bulk recipient's button_params on its own", async () => {
    const s = await setup();
    const res = await s.api.post(BULK, {
      wa_number: s.number.number,
      template_name: s.template.name,
      recipients: [
        { destination: "573001112234", body_params: [{ key: "1", value: "C-1" }], button_params: [{ index: 1, value: "C-1" }] },
        { destination: "573001112235", body_params: [{ key: "1", value: "C-2" }] },
        { destination: "573001112236", body_params: [{ key: "1", value: "C-3" }], button_params: [{ index: 1, value: "C 3" }] },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.accepted).toBe(1);
    expect(res.body.data.results[1].errors).toEqual({ button_params: [buttonParamRequired(1)] });
    expect(res.body.data.results[2].errors).toEqual({
      "button_params.0.value": ["El valor del botón 1 no puede contener espacios, saltos de línea ni tabulaciones."],
    });
    const row = await messageByUpdateId(res.body.data.results[0].update_id);
    expect(JSON.stringify(row.payload)).toContain("https://tienda.test/pedidos/C-1");
  });

  it("a bulk recipient's row is the single send's row: payload and send_params alike", async () => {
    // The bulk send builds the payload once and sets each recipient's texts in SQL
    // (lib/messages/payload-slots.ts); a single send builds it whole. The rows must not differ.
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const components: TemplateComponent[] = [
      { type: "HEADER", format: "TEXT", text: "Pedido {{1}}", example: { header_text: ["A-1"] } },
      ...urlButtonComponents,
    ];
    const template = await createTemplate(team.id, { components });
    const api = apiClient(server.url, team.token);
    const params = {
      header_param: { key: "1", value: "Z-9 $& {{2}}" },
      body_params: [{ key: "1", value: 'Ana "la" <b>' }],
      button_params: [{ index: 1, value: "Z-9" }],
    };
    const one = await api.post(SEND, { wa_number: number.number, template_name: template.name, destination: "573001112241", ...params });
    const bulk = await api.post(BULK, {
      wa_number: number.number,
      template_name: template.name,
      recipients: [{ destination: "573001112242", ...params }],
    });
    expect([one.status, bulk.status]).toEqual([200, 200]);
    const single = await messageByUpdateId(one.body.data.update_id);
    const fromBulk = await messageByUpdateId(bulk.body.data.results[0].update_id);
    expect(fromBulk.payload).toEqual(single.payload);
    expect(fromBulk.sendParams).toEqual(single.sendParams);
    expect(JSON.stringify(fromBulk.payload)).toContain("Pedido Z-9 $& {{2}}");
    expect(JSON.stringify(fromBulk.payload)).toContain("https://tienda.test/pedidos/Z-9");
  });

  it("templates without dynamic buttons need no button_params (and refuse one)", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const template = await createTemplate(team.id, { components: [{ type: "BODY", text: "Hola" }] });
    const api = apiClient(server.url, team.token);
    const base = { wa_number: number.number, destination: "573001112237", template_name: template.name };
    expect((await api.post(SEND, base)).status).toBe(200);
    const res = await api.post(SEND, { ...base, button_params: [{ index: 0, value: "x" }] });
    expect(res.body.errors).toEqual({ "button_params.0.index": [unknownButtonIndex(0)] });
  });
});

describe("button_params of a template synced from Meta with buttons we do not store", () => {
  // Meta's buttons [PHONE_NUMBER, URL with {{1}}, QUICK_REPLY]: the phone button is not stored,
  // yet Meta numbers the URL button 1 and the quick reply 2, and so must every send.
  async function syncedTeam() {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    graph.setTemplatePages([
      [
        {
          id: "ext_envio_con_telefono",
          name: "envio_con_telefono",
          status: "APPROVED",
          category: "UTILITY",
          language: "es_MX",
          components: [
            { type: "BODY", text: "Tu pedido {{1}} salió." },
            {
              type: "BUTTONS",
              buttons: [
                { type: "PHONE_NUMBER", text: "Llamar", phone_number: "+5215555555555" },
                {
                  type: "URL",
                  text: "Seguir pedido",
                  url: "https://tienda.test/pedidos/{{1}}",
                  example: ["https://tienda.test/pedidos/A-1"],
                },
                { type: "QUICK_REPLY", text: "Gracias" },
              ],
            },
          ],
        },
      ],
    ]);
    const synced = await registry["templates:sync"].run({ number: number.number });
    expect(synced.imported).toEqual(["envio_con_telefono/es_MX"]);
    const body = (extra: Record<string, unknown> = {}) => ({
      wa_number: number.number,
      destination: "573001112240",
      template_name: "envio_con_telefono",
      body_params: [{ key: "1", value: "D-9" }],
      ...extra,
    });
    return { team, number, body, api: apiClient(server.url, team.token) };
  }

  it("lists each button with Meta's index where it is not its position", async () => {
    const s = await syncedTeam();
    const list = await s.api.get(`/api/v1/message_templates?wa_number=${s.number.number}`);
    expect(list.status).toBe(200);
    expect(list.body.data[0].components[1]).toEqual({
      type: "BUTTONS",
      buttons: [
        { type: "URL", text: "Seguir pedido", url: "https://tienda.test/pedidos/{{1}}", index: 1 },
        { type: "QUICK_REPLY", text: "Gracias", payload: "Gracias", index: 2 },
      ],
    });
  });

  it("takes button_params with Meta's index of the URL button, refuses its position in our list, and sends Meta's indexes", async () => {
    const s = await syncedTeam();
    const missing = await s.api.post(SEND, s.body());
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ button_params: [buttonParamRequired(1)] });

    const byPosition = await s.api.post(SEND, s.body({ button_params: [{ index: 0, value: "D-9" }] }));
    expect(byPosition.status).toBe(422);
    expect(byPosition.body.errors).toEqual({ "button_params.0.index": [unknownButtonIndex(0)] });
    expect(unknownButtonIndex(0)).toBe("El botón 0 de la plantilla no es un botón URL con variable: no se admite en button_params.");

    const res = await s.api.post(SEND, s.body({ button_params: [{ index: 1, value: "D-9" }] }));
    expect(res.status).toBe(200);
    const row = await messageByUpdateId(res.body.data.update_id);
    // The payload is the 2.1 structure: the filled link, without Meta's indexes.
    expect((row.payload as { components: TemplateComponent[] }).components.find((c) => c.type === "BUTTONS")).toEqual({
      type: "BUTTONS",
      buttons: [
        { type: "URL", text: "Seguir pedido", url: "https://tienda.test/pedidos/D-9" },
        { type: "QUICK_REPLY", text: "Gracias", payload: "Gracias" },
      ],
    });

    await sendThroughWorker(s.team.id, row.id);
    const sends = graph.sends(s.number.phoneNumberId);
    expect(sends).toHaveLength(1);
    expect(sends[0].body.template.components).toEqual([
      { type: "body", parameters: [{ type: "text", text: "D-9" }] },
      { type: "button", sub_type: "quick_reply", index: "2", parameters: [{ type: "payload", payload: "Gracias" }] },
      { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "D-9" }] },
    ]);
  });
});

describe("OpenAPI: button_params", () => {
  it("documents button_params on the single send and on each bulk recipient", async () => {
    const res = await apiClient(server.url).get("/api/v1/openapi.json");
    const schemas = res.body.components.schemas;
    const recipient = schemas.SendBulkRequest.properties.recipients.items;
    for (const fields of [schemas.SendTemplateRequest.properties, recipient.properties]) {
      const field = fields.button_params;
      expect(field.description).toMatch(/botón URL con variable/);
      expect(JSON.stringify(field)).toContain('"index"');
    }
  });
});
