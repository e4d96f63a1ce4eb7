import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { contacts, messages, templates } from "@/db/schema";
import { MARKETING_OPTED_OUT_AT_SEND } from "@/lib/contacts/schemas";
import { claimMessages } from "@/lib/delivery/repo";
import { broadcastMaySend, parkClaim } from "@/lib/broadcasts/lifecycle";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createContact, createLabel, createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber, createQueuedMessage, eventsOfMessage, postWebhook, waitFor } from "../helpers/delivery-factories";
import { startFakeGraph, type FakeGraph } from "../fakes/graph";
import { change, envelope, inboundMessage } from "../fixtures/webhooks";
import { workerPool } from "../helpers/workers";

/**
 * Consent at send time: a MARKETING template message queued for a contact who opts out before
 * it leaves (a scheduled broadcast, a paused one, a single send waiting its turn) is never sent to
 * the provider; it ends FAILED with our own reason, counted and listed like any failure.
 */
let server: TestServer;
let graph: FakeGraph;
const workers = workerPool({ pollMs: 50, leaseMs: 2000, backoffBaseMs: 20, backoffCapMs: 80 });

beforeAll(async () => {
  graph = await startFakeGraph();
  process.env.GRAPH_API_BASE_URL = graph.url;
  process.env.GRAPH_API_VERSION = "v21.0";
  process.env.GRAPH_TIMEOUT_MS = "2000";
  server = await startServer();
});
afterAll(async () => {
  await workers.stopAll();
  await server.close();
  await graph.close();
});

const B = "/api/v1/broadcasts";
// Each test runs the API, a worker and the fake Graph API: a generous bound for a loaded machine.
const slow = { timeout: 120_000 };
const REFUSED = { code: MARKETING_OPTED_OUT_AT_SEND.code, title: MARKETING_OPTED_OUT_AT_SEND.title };
const params = {
  header_param: { key: "1", value: "Ana" },
  body_params: [
    { key: "1", value: "A-1" },
    { key: "2", value: "lunes" },
  ],
};

/** A team with a Cloud API number, a MARKETING and a UTILITY template, and three labelled contacts. */
async function world() {
  const team = await createTeam();
  const number = await createCloudNumber(team.id, { messagesPerSecond: 20 });
  const marketing = await createTemplate(team.id, { category: "MARKETING" });
  const utility = await createTemplate(team.id, { category: "UTILITY" });
  const label = await createLabel(team.id, { title: "Clientes" });
  const [ana, bea, caro] = [
    await createContact(team.id, { name: "Ana", labelIds: [label.id] }),
    await createContact(team.id, { name: "Bea", labelIds: [label.id] }),
    await createContact(team.id, { name: "Caro", labelIds: [label.id] }),
  ];
  const api = apiClient(server.url, team.token);
  const broadcast = async (template: string, extra: Record<string, unknown> = {}) => {
    const res = await api.post(B, {
      name: "Promo",
      wa_number: number.number,
      template_name: template,
      audience: { labels_any: [label.id] },
      ...params,
      ...extra,
    });
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as number;
  };
  /** The customer writes "¡Salir!" (Meta's inbound webhook): recorded as a keyword opt-out. */
  const saysSalir = async (customerNumber: string) => {
    const message = { ...inboundMessage("text", { from: customerNumber }), text: { body: "¡Salir!" } };
    const res = await postWebhook(
      server.url,
      envelope(change(number.phoneNumberId, { contacts: [{ wa_id: customerNumber }], messages: [message] })),
      number.secrets.appSecret,
    );
    expect(res.status).toBe(200);
    const db = await getDb();
    const [row] = await db.select().from(contacts).where(eq(contacts.customerNumber, customerNumber));
    expect(row.marketingOptOutReason).toBe("keyword");
  };
  /** The numbers the fake Graph API was asked to send to from this team's number. */
  const sentTo = () => graph.sends(number.phoneNumberId).map((r) => r.body.to as string);
  const worker = () => workers.start({ teamIds: [team.id] });
  const done = (id: number) =>
    waitFor(
      async () => (await api.get(`${B}/${id}`)).body.data,
      (b) => b.status === "DONE",
      60_000,
      100,
    );
  return { team, number, marketing, utility, ana, bea, caro, api, broadcast, saysSalir, sentTo, worker, done };
}

async function byUpdateId(updateId: string) {
  const db = await getDb();
  const [row] = await db.select().from(messages).where(eq(messages.updateId, updateId));
  return row;
}

async function messagesOf(broadcastId: number) {
  const db = await getDb();
  return db.select().from(messages).where(eq(messages.broadcastId, broadcastId));
}

describe("a MARKETING broadcast to a customer who opts out after it was queued", slow, () => {
  it("scheduled: the message is FAILED with the opt-out reason and never reaches the provider; the rest go", async () => {
    const w = await world();
    const at = new Date(Date.now() + 3000);
    const id = await w.broadcast(w.marketing.name, { scheduled_at: at.toISOString() });
    const queued = await messagesOf(id);
    expect(queued.map((m) => m.status)).toEqual(["QUEUED", "QUEUED", "QUEUED"]);
    expect(queued.every((m) => m.nextAttemptAt?.getTime() === at.getTime())).toBe(true);
    // Between enqueue and send: the customer writes ¡Salir!, then the worker starts (no worker
    // serves the team before, so nothing can have left yet, however slow the machine).
    await w.saysSalir(w.bea.customerNumber!);
    expect(w.sentTo()).toEqual([]);
    w.worker();
    const final = await w.done(id);

    expect(w.sentTo().sort()).toEqual([w.ana.customerNumber, w.caro.customerNumber].sort());
    const rows = await messagesOf(id);
    const bea = rows.find((m) => m.contactId === w.bea.id)!;
    expect(bea).toMatchObject({ status: "FAILED", error: REFUSED, providerMessageId: null });
    expect(rows.filter((m) => m.contactId !== w.bea.id).every((m) => m.status === "SENDED")).toBe(true);
    // The one FAILED transition of the write path: its history row (the timeline reads it).
    expect((await eventsOfMessage(bea.id)).map((e) => e.status)).toEqual(["FAILED"]);

    // Counted in the broadcast's results and listed among its recipients.
    expect(final.counts).toMatchObject({ recipients: 3, rejected: 0, queued: 0, sended: 2, failed: 1, cancelled: 0 });
    expect(final.failures_by_code).toEqual([{ ...REFUSED, count: 1 }]);
    const failed = await w.api.get(`${B}/${id}/recipients?status=FAILED&per_page=50`);
    expect(failed.status).toBe(200);
    expect(failed.body.data).toHaveLength(1);
    expect(failed.body.data[0]).toMatchObject({ status: "FAILED", error: REFUSED, contact: { id: w.bea.id } });
    const csv = await w.api.get(`${B}/${id}/recipients?format=csv`);
    expect(csv.text).toContain(MARKETING_OPTED_OUT_AT_SEND.title);

    // The message stats (triggers and deltas) count it exactly once, under our code.
    const stats = await w.api.get(`/api/v1/messages/stats?template=${encodeURIComponent(w.marketing.name)}`);
    expect(stats.status).toBe(200);
    expect(stats.body.data).toMatchObject({ total: 3, by_status: { SENDED: 2, FAILED: 1, QUEUED: 0 } });
    expect(stats.body.data.failures_by_code).toEqual([{ ...REFUSED, count: 1 }]);
  });

  it("paused, opted out, resumed: the message is not sent", async () => {
    const w = await world();
    // No worker yet: the broadcast is paused before any of it leaves.
    const id = await w.broadcast(w.marketing.name);
    expect((await w.api.post(`${B}/${id}/pause`)).status).toBe(200);
    // Opted out by an agent this time (PATCH), while the broadcast is paused.
    const patched = await w.api.patch(`/api/v1/contacts/${w.caro.id}`, { marketing_opt_out: true });
    expect(patched.status).toBe(200);
    expect((await w.api.post(`${B}/${id}/resume`)).status).toBe(200);
    w.worker();
    const final = await w.done(id);

    expect(w.sentTo().sort()).toEqual([w.ana.customerNumber, w.bea.customerNumber].sort());
    const caro = (await messagesOf(id)).find((m) => m.contactId === w.caro.id)!;
    expect(caro).toMatchObject({ status: "FAILED", error: REFUSED });
    expect(final.counts).toMatchObject({ recipients: 3, sended: 2, failed: 1 });
  });
});

describe("what consent does not stop", slow, () => {
  it("a UTILITY template to the same opted-out contact still goes", async () => {
    const w = await world();
    await w.saysSalir(w.ana.customerNumber!);
    const id = await w.broadcast(w.utility.name);
    const single = await w.api.post("/api/v1/message_templates/send", {
      wa_number: w.number.number,
      template_name: w.utility.name,
      destination: w.ana.customerNumber,
      ...params,
    });
    expect(single.status, single.text).toBe(200);
    w.worker();
    const final = await w.done(id);
    expect(final.counts).toMatchObject({ recipients: 3, sended: 3, failed: 0 });
    const message = await waitFor(
      () => byUpdateId(single.body.data.update_id),
      (m) => m.status === "SENDED",
      60_000,
    );
    expect(message.error).toBeNull();
    expect(w.sentTo().filter((n) => n === w.ana.customerNumber)).toHaveLength(2);
  });

  it("but a template Meta recategorised MARKETING after the send was queued is refused", async () => {
    const w = await world();
    const single = await w.api.post("/api/v1/message_templates/send", {
      wa_number: w.number.number,
      template_name: w.utility.name,
      destination: w.bea.customerNumber,
      ...params,
    });
    expect(single.status, single.text).toBe(200);
    const db = await getDb();
    await db.update(templates).set({ category: "MARKETING" }).where(eq(templates.id, w.utility.id));
    await w.saysSalir(w.bea.customerNumber!);
    w.worker();
    const message = await waitFor(
      () => byUpdateId(single.body.data.update_id),
      (m) => m.status !== "QUEUED",
      60_000,
    );
    expect(message).toMatchObject({ status: "FAILED", error: REFUSED });
    expect(w.sentTo()).toEqual([]);
  });
});

describe("single and bulk sends queued, then opted out", slow, () => {
  it("are FAILED with the opt-out reason, never sent; the subscribed recipient's send goes", async () => {
    const w = await world();
    const single = await w.api.post("/api/v1/message_templates/send", {
      wa_number: w.number.number,
      template_name: w.marketing.name,
      destination: w.ana.customerNumber,
      ...params,
    });
    expect(single.status, single.text).toBe(200);
    const bulk = await w.api.post("/api/v1/message_templates/send_bulk", {
      wa_number: w.number.number,
      template_name: w.marketing.name,
      recipients: [w.bea.customerNumber, w.caro.customerNumber].map((destination) => ({ destination, ...params })),
    });
    expect(bulk.status, bulk.text).toBe(200);
    expect(bulk.body.data).toMatchObject({ accepted: 2, rejected: 0 });
    await w.saysSalir(w.ana.customerNumber!);
    await w.saysSalir(w.bea.customerNumber!);
    w.worker();

    const db = await getDb();
    const rows = await waitFor(
      () => db.select().from(messages).where(eq(messages.teamId, w.team.id)),
      (ms) => ms.filter((m) => m.direction === "OUTBOUND").every((m) => m.status !== "QUEUED"),
      60_000,
    );
    const outbound = rows.filter((m) => m.direction === "OUTBOUND");
    expect(outbound).toHaveLength(3);
    const byContact = new Map(outbound.map((m) => [m.contactId, m]));
    expect(byContact.get(w.ana.id)).toMatchObject({ status: "FAILED", error: REFUSED });
    expect(byContact.get(w.bea.id)).toMatchObject({ status: "FAILED", error: REFUSED });
    expect(byContact.get(w.caro.id)).toMatchObject({ status: "SENDED", error: null });
    expect(w.sentTo()).toEqual([w.caro.customerNumber]);
  });
});

describe("the claim reads consent in the statement that claims", () => {
  it("flags exactly the MARKETING templates to opted-out contacts: by template id or by name, any case of the category", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const marketing = await createTemplate(team.id, { category: "marketing" });
    const utility = await createTemplate(team.id, { category: "UTILITY" });
    const out = await createContact(team.id, { marketingOptedOutAt: new Date(), marketingOptOutReason: "agent" });
    const subscribed = await createContact(team.id);
    const queue = (contact: typeof out, template: typeof marketing) =>
      createQueuedMessage({ teamId: team.id, waNumberId: number.id, contact, template });
    const refused = await queue(out, marketing);
    const byName = await queue(out, marketing);
    const notMarketing = await queue(out, utility);
    const notOptedOut = await queue(subscribed, marketing);
    const reply = await queue(out, marketing);
    const db = await getDb();
    // A message that names its template only by name and language (the send finds it so too).
    await db.update(messages).set({ templateId: null }).where(eq(messages.id, byName.id));
    // A free-form reply is no template: never refused by marketing consent.
    await db.update(messages).set({ type: "text", templateId: null, templateName: null }).where(eq(messages.id, reply.id));

    const claims = await claimMessages(db, { limit: 10, leaseMs: 60_000, aheadSec: 60, teamIds: [team.id] });
    const flagged = new Map(claims.map((c) => [c.id, c.marketingRefused]));
    expect(flagged).toEqual(
      new Map([
        [refused.id, true],
        [byName.id, true],
        [notMarketing.id, false],
        [notOptedOut.id, false],
        [reply.id, false],
      ]),
    );
  });
});

describe("the last check before a broadcast message leaves", slow, () => {
  it("stops a message whose contact opted out after its claim: given back, and the next claim fails it", async () => {
    const w = await world();
    const id = await w.broadcast(w.marketing.name);
    const db = await getDb();
    // Claimed as the worker claims, before the opt-out: consent still held then.
    const claims = await claimMessages(db, { limit: 10, leaseMs: 60_000, aheadSec: 60, teamIds: [w.team.id] });
    expect(claims).toHaveLength(3);
    expect(claims.every((c) => c.marketingRefused === false)).toBe(true);
    const rows = await messagesOf(id);
    const ana = claims.find((c) => rows.find((m) => m.id === c.id)!.contactId === w.ana.id)!;
    const bea = claims.find((c) => rows.find((m) => m.id === c.id)!.contactId === w.bea.id)!;

    await w.saysSalir(w.ana.customerNumber!);
    expect(await broadcastMaySend(ana.id, ana.attempts)).toBe(false);
    expect(await broadcastMaySend(bea.id, bea.attempts)).toBe(true);
    await parkClaim(ana.id, ana.attempts);
    const again = await claimMessages(db, { limit: 10, leaseMs: 60_000, aheadSec: 60, teamIds: [w.team.id] });
    expect(again).toEqual([{ id: ana.id, attempts: ana.attempts, marketingRefused: true }]);
  });
});
