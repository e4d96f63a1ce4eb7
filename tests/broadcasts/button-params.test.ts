import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createLabel } from "../helpers/factories";
import { urlButtonTeam } from "../helpers/send-factories";
import { waitFor, messageById } from "../helpers/delivery-factories";
import { startFakeGraph, type FakeGraph } from "../fakes/graph";
import { createWorker } from "@/lib/delivery/worker";
import type { TemplateComponent } from "@/lib/templates/schemas";
import { buttonParamRequired, unknownButtonIndex } from "@/lib/messages/send-params";
import { buttonValueFormat, duplicateButtonIndex } from "@/lib/messages/send-schemas";
import { buttonEmptyFor } from "@/lib/broadcasts/recipient";
import { unknownColumn } from "@/lib/broadcasts/schemas";
import { broadcastMessages, createContact, rejectionsOf } from "./helpers";

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

const B = "/api/v1/broadcasts";

/** A team whose template has a dynamic URL button (urlButtonComponents), a VIP label, and a broadcast body for it. */
async function setup() {
  const { team, number, template } = await urlButtonTeam();
  const vip = await createLabel(team.id, { title: "VIP" });
  const body = (extra: Record<string, unknown> = {}) => ({
    name: "Pedidos",
    wa_number: number.number,
    template_name: template.name,
    body_params: [{ key: "1", value: "{{name}}" }],
    audience: { labels_any: [vip.id] },
    ...extra,
  });
  return { team, number, template, vip, body, api: apiClient(server.url, team.token) };
}

describe("broadcast button_params", () => {
  it("refuses what a single send refuses, with the same texts, and an unknown column", async () => {
    const s = await setup();
    const missing = await s.api.post(B, s.body());
    expect(missing.status).toBe(422);
    expect(missing.body.errors).toEqual({ button_params: [buttonParamRequired(1)] });
    const wrong = await s.api.post(B, s.body({ button_params: [{ index: 2, value: "x" }] }));
    expect(wrong.body.errors).toEqual({ "button_params.0.index": [unknownButtonIndex(2)] });
    const twice = await s.api.post(
      B,
      s.body({
        button_params: [
          { index: 1, value: "a" },
          { index: 1, value: "b" },
        ],
      }),
    );
    expect(twice.body.errors["button_params.1.index"]).toEqual([duplicateButtonIndex(1)]);
    const spaced = await s.api.post(B, s.body({ button_params: [{ index: 1, value: "a b" }] }));
    expect(spaced.body.errors).toEqual({ "button_params.0.value": [buttonValueFormat(1)] });
    const column = await s.api.post(B, s.body({ button_params: [{ index: 1, value: "{{email}}" }] }));
    expect(column.body.errors).toEqual({ "button_params.0.value": [unknownColumn("email")] });
  });

  it("fills each recipient's link from its columns, stores it, keeps it in send_params and sends the url button", async () => {
    const s = await setup();
    const ana = await createContact(s.team.id, { name: "Ana", customerId: "A-1", labelIds: [s.vip.id] });
    const beto = await createContact(s.team.id, { name: "Beto", customerId: "B-2", labelIds: [s.vip.id] });
    const noId = await createContact(s.team.id, { name: "Caro", customerId: null, labelIds: [s.vip.id] });
    const res = await s.api.post(B, s.body({ button_params: [{ index: "1", value: "{{ customer_id }}" }] }));
    expect(res.status).toBe(201);
    expect(res.body.data.counts).toMatchObject({ queued: 2, rejected: 1 });

    const [rejection] = await rejectionsOf(s.team.id, res.body.data.id);
    expect(rejection.contactId).toBe(noId.id);
    expect(rejection.errors).toEqual({ "button_params.0.value": [buttonEmptyFor(1, ["customer_id"])] });

    const rows = await broadcastMessages(s.team.id, res.body.data.id);
    for (const [contact, code] of [
      [ana, "A-1"],
      [beto, "B-2"],
    ] as const) {
      const row = rows.find((r) => r.contactId === contact.id)!;
      const comps = (row.payload as { components: TemplateComponent[] }).components;
      expect(comps.find((c) => c.type === "BODY")).toMatchObject({ text: `Hola ${contact.name}, tu pedido va en camino.` });
      expect(comps.find((c) => c.type === "BUTTONS")).toMatchObject({
        buttons: [
          { type: "QUICK_REPLY" },
          { type: "URL", url: `https://tienda.test/pedidos/${code}` },
          { type: "URL", url: "https://tienda.test/" },
        ],
      });
      expect(row.sendParams).toMatchObject({ button_params: [{ index: 1, value: code }] });
    }

    const worker = createWorker({ pollMs: 50, leaseMs: 2000, backoffBaseMs: 20, backoffCapMs: 80, teamIds: [s.team.id] });
    worker.start();
    for (const row of rows) {
      await waitFor(
        () => messageById(row.id),
        (m) => m.status !== "QUEUED",
      );
    }
    await worker.stop();
    const sent = graph.sends(s.number.phoneNumberId).map((x) => x.body.template.components);
    expect(sent).toHaveLength(2);
    expect(sent).toContainEqual([
      { type: "body", parameters: [{ type: "text", text: "Ana" }] },
      { type: "button", sub_type: "quick_reply", index: "0", parameters: [{ type: "payload", payload: "THANKS" }] },
      { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "A-1" }] },
    ]);
    expect(sent).toContainEqual([
      { type: "body", parameters: [{ type: "text", text: "Beto" }] },
      { type: "button", sub_type: "quick_reply", index: "0", parameters: [{ type: "payload", payload: "THANKS" }] },
      { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "B-2" }] },
    ]);
  });

  it("a fixed button value is the same link for every recipient", async () => {
    const s = await setup();
    await createContact(s.team.id, { name: "Ana", labelIds: [s.vip.id] });
    const res = await s.api.post(
      B,
      s.body({ body_params: [{ key: "1", value: "cliente" }], button_params: [{ index: 1, value: "OFERTA" }] }),
    );
    expect(res.status).toBe(201);
    const [row] = await broadcastMessages(s.team.id, res.body.data.id);
    expect(JSON.stringify(row.payload)).toContain("https://tienda.test/pedidos/OFERTA");
    expect(row.sendParams).toMatchObject({ button_params: [{ index: 1, value: "OFERTA" }] });
  });
});
