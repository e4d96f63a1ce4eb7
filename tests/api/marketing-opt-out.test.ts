import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { and, eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { contacts, messages } from "@/db/schema";
import { isOptOutText } from "@/lib/contacts/opt-out";
import { MARKETING_OPTED_OUT, MARKETING_OPT_OUT_INVALID, contactResponse, listContactsResponse } from "@/lib/contacts/schemas";
import { audienceSizeResponse } from "@/lib/audiences/schemas";
import { ROW_OPT_OUT_UNKNOWN } from "@/lib/contacts/import-schemas";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createLabel, createNumber, createTeam, createTemplate, uniqueNumber } from "../helpers/factories";
import { createCloudNumber, createQueuedMessage, messageById, postWebhook, waitFor } from "../helpers/delivery-factories";
import { startFakeGraph, graphError, type FakeGraph } from "../fakes/graph";
import { change, envelope, inboundMessage, statusUpdate, wamid } from "../fixtures/webhooks";
import { workerPool } from "../helpers/workers";

let server: TestServer;
let graph: FakeGraph;
const workers = workerPool({ pollMs: 100, leaseMs: 2000, backoffBaseMs: 20, backoffCapMs: 80 });
beforeAll(async () => {
  graph = await startFakeGraph();
  process.env.GRAPH_API_BASE_URL = graph.url;
  server = await startServer();
});
afterAll(async () => {
  await workers.stopAll();
  await server.close();
  await graph.close();
});

async function contactRow(id: number) {
  const db = await getDb();
  const [row] = await db.select().from(contacts).where(eq(contacts.id, id));
  return row;
}

const SEND = "/api/v1/message_templates/send";
const sendBody = (number: string, template: string, destination: string) => ({
  wa_number: number,
  template_name: template,
  destination,
  header_param: { key: "1", value: "Ana" },
  body_params: [
    { key: "1", value: "A-1" },
    { key: "2", value: "lunes" },
  ],
});

describe("opt-out words", () => {
  it("match the whole trimmed message, case- and accent-insensitively, and nothing else", () => {
    for (const t of ["SALIR", "salir", " Salir ", "¡Salir!", "stop.", "Stop", "BAJA", "bája", "  baja\n"])
      expect(isOptOutText(t), t).toBe(true);
    for (const t of ["", "quiero salir", "salirr", "no me den de baja", "STOP ya", "hola"]) expect(isOptOutText(t), t).toBe(false);
  });

  it("are read from OPT_OUT_WORDS", () => {
    process.env.OPT_OUT_WORDS = "Cancelar, desuscribir";
    try {
      expect(isOptOutText("cancelar")).toBe(true);
      expect(isOptOutText("DESUSCRIBIR")).toBe(true);
      expect(isOptOutText("salir")).toBe(false);
    } finally {
      delete process.env.OPT_OUT_WORDS;
    }
    expect(isOptOutText("salir")).toBe(true);
  });
});

describe("a customer's SALIR (inbound webhook)", () => {
  it("opts the contact out with reason keyword at the message's time; other texts leave it alone", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const from = uniqueNumber();
    const other = uniqueNumber();
    const ts = Math.floor(Date.now() / 1000) - 60;
    const text = (to: string, body: string, timestamp = ts) => ({ ...inboundMessage("text", { from: to, timestamp }), text: { body } });
    const res = await postWebhook(
      server.url,
      envelope(
        change(number.phoneNumberId, {
          contacts: [{ wa_id: from }, { wa_id: other }],
          messages: [text(from, "  ¡Salír! "), text(other, "quiero salir de esto")],
        }),
      ),
      number.secrets.appSecret,
    );
    expect(res.status).toBe(200);
    const db = await getDb();
    const [opted] = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.teamId, team.id), eq(contacts.customerNumber, from)));
    expect(opted.marketingOptOutReason).toBe("keyword");
    expect(opted.marketingOptedOutAt?.getTime()).toBe(ts * 1000);
    const [kept] = await db
      .select()
      .from(contacts)
      .where(and(eq(contacts.teamId, team.id), eq(contacts.customerNumber, other)));
    expect(kept.marketingOptedOutAt).toBeNull();

    // A second STOP later keeps the first date.
    await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { contacts: [{ wa_id: from }], messages: [text(from, "STOP", ts + 30)] })),
      number.secrets.appSecret,
    );
    expect((await contactRow(opted.id)).marketingOptedOutAt?.getTime()).toBe(ts * 1000);
  });
});

describe("Meta's 131050 on a send", () => {
  it("in a failed status webhook opts the contact out (reason provider); another error code does not", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const template = await createTemplate(team.id, { category: "MARKETING" });
    const a = await createContact(team.id);
    const b = await createContact(team.id);
    const db = await getDb();
    const failWith = async (contact: typeof a, code: number) => {
      const msg = await createQueuedMessage({ teamId: team.id, waNumberId: number.id, contact, template });
      const id = wamid();
      await db.update(messages).set({ status: "SENDED", providerMessageId: id }).where(eq(messages.id, msg.id));
      const st = statusUpdate("failed", { id, to: contact.customerNumber! }) as Record<string, any>;
      st.errors = [{ code, title: code === 131050 ? "User has stopped marketing messages" : "Message undeliverable" }];
      const res = await postWebhook(server.url, envelope(change(number.phoneNumberId, { statuses: [st] })), number.secrets.appSecret);
      expect(res.status).toBe(200);
      expect((await messageById(msg.id)).status).toBe("FAILED");
    };
    await failWith(a, 131050);
    await failWith(b, 131026);
    expect(await contactRow(a.id)).toMatchObject({ marketingOptOutReason: "provider" });
    expect((await contactRow(a.id)).marketingOptedOutAt).toBeInstanceOf(Date);
    expect((await contactRow(b.id)).marketingOptedOutAt).toBeNull();
  });

  it("answered on the send itself (the worker's FAILED) opts the contact out", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const template = await createTemplate(team.id, { category: "MARKETING" });
    const contact = await createContact(team.id);
    const msg = await createQueuedMessage({
      teamId: team.id,
      waNumberId: number.id,
      contact,
      template,
      headerParam: { key: "1", value: "x" },
      bodyParams: [
        { key: "1", value: "a" },
        { key: "2", value: "b" },
      ],
    });
    graph.script(graphError(400, 131050, "Unable to deliver message", "User has stopped marketing messages"));
    const w = workers.start({ teamIds: [team.id] });
    await waitFor(
      () => messageById(msg.id),
      (m) => m.status === "FAILED",
    );
    await w.stop();
    const row = await waitFor(
      () => contactRow(contact.id),
      (c) => c.marketingOptedOutAt !== null,
    );
    expect(row.marketingOptOutReason).toBe("provider");
  });
});

/** A team with a number, a MARKETING and a UTILITY template, an opted-out and a subscribed contact. */
async function sendingWorld() {
  const team = await createTeam();
  const number = await createNumber(team.id);
  const marketing = await createTemplate(team.id, { category: "MARKETING" });
  const utility = await createTemplate(team.id, { category: "UTILITY" });
  const label = await createLabel(team.id, { title: "Clientes" });
  const out = await createContact(team.id, { labelIds: [label.id], marketingOptedOutAt: new Date(), marketingOptOutReason: "keyword" });
  const inn = await createContact(team.id, { labelIds: [label.id] });
  return { team, number, marketing, utility, label, out, inn, api: apiClient(server.url, team.token) };
}

describe("MARKETING templates to an opted-out contact", () => {
  it("single send: 422 with the exact message on destination; UTILITY and subscribed contacts still go", async () => {
    const w = await sendingWorld();
    const refused = await w.api.post(SEND, sendBody(w.number.number, w.marketing.name, `+${w.out.customerNumber}`));
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual({ message: MARKETING_OPTED_OUT, errors: { destination: [MARKETING_OPTED_OUT] } });
    expect(MARKETING_OPTED_OUT).toBe(
      "El contacto se dio de baja de los mensajes de marketing: no se le pueden enviar plantillas de la categoría MARKETING.",
    );
    const db = await getDb();
    expect(await db.select().from(messages).where(eq(messages.contactId, w.out.id))).toHaveLength(0);

    expect((await w.api.post(SEND, sendBody(w.number.number, w.utility.name, w.out.customerNumber!))).status).toBe(200);
    expect((await w.api.post(SEND, sendBody(w.number.number, w.marketing.name, w.inn.customerNumber!))).status).toBe(200);
  });

  it("bulk send: the opted-out recipient is rejected with its reason, the others are queued", async () => {
    const w = await sendingWorld();
    const one = (destination: string) => ({
      destination,
      header_param: { key: "1", value: "Ana" },
      body_params: [
        { key: "1", value: "A-1" },
        { key: "2", value: "lunes" },
      ],
    });
    const res = await w.api.post("/api/v1/message_templates/send_bulk", {
      wa_number: w.number.number,
      template_name: w.marketing.name,
      recipients: [one(w.inn.customerNumber!), one(w.out.customerNumber!)],
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({ accepted: 1, rejected: 1 });
    expect(res.body.data.results[1]).toEqual({
      index: 1,
      destination: w.out.customerNumber,
      errors: { destination: [MARKETING_OPTED_OUT] },
    });
    expect(res.body.data.results[0].update_id).toBeTypeOf("string");

    const utility = await w.api.post("/api/v1/message_templates/send_bulk", {
      wa_number: w.number.number,
      template_name: w.utility.name,
      recipients: [one(w.inn.customerNumber!), one(w.out.customerNumber!)],
    });
    expect(utility.body.data).toMatchObject({ accepted: 2, rejected: 0 });
  });

  it("broadcast: rejected with its reason; the audience size says how many opted out", async () => {
    const w = await sendingWorld();
    const size = await w.api.get(`/api/v1/audiences/size?any=${w.label.id}`);
    expect(size.status).toBe(200);
    expect(audienceSizeResponse.parse(size.body).data).toEqual({ size: 2, opted_out: 1 });
    const create = (template: string) =>
      w.api.post("/api/v1/broadcasts", {
        name: `b-${template}`,
        wa_number: w.number.number,
        template_name: template,
        audience: { labels_any: [w.label.id] },
        header_param: { key: "1", value: "{{name}}" },
        body_params: [
          { key: "1", value: "X" },
          { key: "2", value: "viernes" },
        ],
      });
    const res = await create(w.marketing.name);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.counts).toMatchObject({ recipients: 2, rejected: 1, queued: 1 });
    const rejected = await w.api.get(`/api/v1/broadcasts/${res.body.data.id}/recipients?status=REJECTED`);
    expect(rejected.body.data).toHaveLength(1);
    expect(rejected.body.data[0]).toMatchObject({ contact: { id: w.out.id }, status: "REJECTED", error: { title: MARKETING_OPTED_OUT } });

    const utility = await create(w.utility.name);
    expect(utility.body.data.counts).toMatchObject({ recipients: 2, rejected: 0, queued: 2 });
  });
});

describe("PATCH /api/v1/contacts/{contactId}", () => {
  it("lets an agent opt a contact out (reason agent) and back in; the contact list shows it", async () => {
    const team = await createTeam();
    const contact = await createContact(team.id, { name: "Lina" });
    const api = apiClient(server.url, team.token);
    const on = await api.patch(`/api/v1/contacts/${contact.id}`, { marketing_opt_out: true });
    expect(on.status, on.text).toBe(200);
    const dto = contactResponse.parse(on.body).data;
    expect(dto).toMatchObject({ id: contact.id, name: "Lina", marketing_opt_out: { reason: "agent" } });
    expect(Date.parse(dto.marketing_opt_out!.at)).toBeGreaterThan(Date.now() - 60_000);

    const list = listContactsResponse.parse((await api.get(`/api/v1/contacts?search=Lina`)).body);
    expect(list.data.find((c) => c.id === contact.id)?.marketing_opt_out).toEqual(dto.marketing_opt_out);

    // Again: the first date stays.
    const again = await api.patch(`/api/v1/contacts/${contact.id}`, { marketing_opt_out: true });
    expect(again.body.data.marketing_opt_out).toEqual(dto.marketing_opt_out);

    const off = await api.patch(`/api/v1/contacts/${contact.id}`, { marketing_opt_out: false });
    expect(off.status).toBe(200);
    expect(off.body.data.marketing_opt_out).toBeNull();
  });

  it("422 on a bad body, 404 for another team's contact, 401 without a token", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const theirs = await createContact(other.id);
    const api = apiClient(server.url, team.token);
    const bad = await api.patch(`/api/v1/contacts/${theirs.id}`, { marketing_opt_out: "sí" });
    expect(bad.status).toBe(422);
    expect(bad.body).toEqual({ message: MARKETING_OPT_OUT_INVALID, errors: { marketing_opt_out: [MARKETING_OPT_OUT_INVALID] } });
    const foreign = await api.patch(`/api/v1/contacts/${theirs.id}`, { marketing_opt_out: true });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ message: "Contacto no encontrado." });
    expect((await contactRow(theirs.id)).marketingOptedOutAt).toBeNull();
    const anon = await apiClient(server.url).patch(`/api/v1/contacts/${theirs.id}`, { marketing_opt_out: true });
    expect(anon.status).toBe(401);
    expect(anon.body).toEqual({ message: "Unauthenticated." });
  });
});

describe("contacts CSV export and import", () => {
  it("exports the opt-out with its date and reason, only the team's contacts; 401 without a token", async () => {
    const team = await createTeam();
    const other = await createTeam();
    const vip = await createLabel(team.id, { title: "VIP" });
    const at = new Date("2026-11-20T10:00:00Z");
    const a = await createContact(team.id, { name: "Ana", labelIds: [vip.id], marketingOptedOutAt: at, marketingOptOutReason: "keyword" });
    const b = await createContact(team.id, { name: "=Beto" });
    const foreign = await createContact(other.id, { name: "Ajeno" });
    const res = await apiClient(server.url, team.token).get("/api/v1/contacts?format=csv");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    const lines = res.text
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("number,name,customer_id,labels,marketing_opt_out,marketing_opt_out_at,marketing_opt_out_reason");
    expect(lines).toContain(`${a.customerNumber},Ana,${a.customerId},VIP,sí,2026-11-20T10:00:00.000Z,keyword`);
    // A formula-looking name is defused.
    expect(lines).toContain(`${b.customerNumber},'=Beto,${b.customerId},,no,,`);
    expect(res.text).not.toContain(foreign.customerNumber!);
    expect(lines).toHaveLength(3);
    expect((await apiClient(server.url).get("/api/v1/contacts?format=csv")).status).toBe(401);
  });

  it("import: a marketing_opt_out column opts out (reason import), never opts back in, warns on an unknown value", async () => {
    const team = await createTeam();
    const already = await createContact(team.id, {
      marketingOptedOutAt: new Date("2026-01-01T00:00:00Z"),
      marketingOptOutReason: "keyword",
    });
    const [n1, n2, n3] = [uniqueNumber(), uniqueNumber(), uniqueNumber()];
    const csv = [
      "numero,nombre,baja_marketing",
      `${n1},Uno,sí`,
      `${n2},Dos,no`,
      `${n3},Tres,quizás`,
      `${already.customerNumber},Ya,no`,
    ].join("\n");
    const res = await fetch(`${server.url}/api/v1/contacts/import`, {
      method: "POST",
      headers: { authorization: `Bearer ${team.token}`, "content-type": "text/csv" },
      body: csv,
    });
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body.data.warnings).toEqual([{ line: 4, reason: ROW_OPT_OUT_UNKNOWN, code: "marketing_opt_out_unknown" }]);
    const db = await getDb();
    const rows = await db.select().from(contacts).where(eq(contacts.teamId, team.id));
    const by = new Map(rows.map((r) => [r.customerNumber, r]));
    expect(by.get(n1)).toMatchObject({ marketingOptOutReason: "import" });
    expect(by.get(n1)!.marketingOptedOutAt).toBeInstanceOf(Date);
    expect(by.get(n2)!.marketingOptedOutAt).toBeNull();
    expect(by.get(n3)!.marketingOptedOutAt).toBeNull();
    expect(by.get(already.customerNumber)).toMatchObject({ marketingOptOutReason: "keyword" });
    expect(by.get(already.customerNumber)!.marketingOptedOutAt?.toISOString()).toBe("2026-01-01T00:00:00.000Z");
  });
});
