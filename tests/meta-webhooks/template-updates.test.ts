import http from "node:http";
import type { AddressInfo } from "node:net";
import { and, asc, eq, isNull } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { events, messages, numberHealthChanges, templateChanges, templates, webhookDeadLetters } from "@/db/schema";
import { installWebhookFastLane, FAST_LANE_PATH } from "@/lib/meta-webhooks/fast-lane";
import { MARKETING_OPTED_OUT, MARKETING_OPTED_OUT_AT_SEND } from "@/lib/contacts/opt-out";
import { templateNotApproved } from "@/lib/templates/sendable";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { waitFor } from "../helpers/wait";
import { workerPool } from "../helpers/workers";
import { createContact, createLabel, createTeam, createTemplate } from "../helpers/factories";
import { createCloudNumber } from "../helpers/delivery-factories";
import { startFakeGraph, type FakeGraph } from "../fakes/graph";
import {
  accountEnvelope,
  accountUpdate,
  phoneNumberQualityUpdate,
  templateCategoryImpending,
  templateCategoryUpdate,
  templateQualityUpdate,
  templateStatusUpdate,
  type AccountChange,
} from "../fakes/account-webhooks";

/**
 * Meta's business-account webhooks (docs/features/templates-and-number-health.md): template
 * status, quality and category, number quality and limit, account events. Posted signed, as Meta
 * does (tests/fakes/account-webhooks.ts), to the same endpoint as messages; applied at once, with a
 * history row and an event per change; sends of a template Meta paused or rejected answer 422.
 */
let server: TestServer;
let graph: FakeGraph;
let hook: string;
const workers = workerPool({ pollMs: 50, leaseMs: 2000 });
beforeAll(async () => {
  graph = await startFakeGraph();
  process.env.GRAPH_API_BASE_URL = graph.url;
  server = await startServer();
  hook = `${server.url}/api/v1/webhooks/whatsapp`;
});
afterAll(async () => {
  await workers.stopAll();
  await Promise.all([server.close(), graph.close()]);
});

const header = { key: "1", value: "Ana" };
const bodyParams = [
  { key: "1", value: "A-1" },
  { key: "2", value: "lunes" },
];
let metaSeq = 0;

async function setup(category = "UTILITY") {
  const team = await createTeam();
  const number = await createCloudNumber(team.id);
  const template = await createTemplate(team.id, { waNumberId: number.id, externalId: String(900_000 + ++metaSeq), category });
  const api = apiClient(server.url, team.token);
  const post = (changes: AccountChange[], opts: { time?: number; secret?: string; waba?: string } = {}) =>
    graph.postAccountChanges(hook, opts.secret ?? number.secrets.appSecret, opts.waba ?? number.businessAccountId, changes, opts);
  const send = (destination = "+57 300 123 4567", name = template.name) =>
    api.post("/api/v1/message_templates/send", {
      wa_number: number.number,
      destination,
      template_name: name,
      header_param: header,
      body_params: bodyParams,
    });
  const ref = { id: template.externalId!, name: template.name, language: template.language };
  return { team, number, template, api, post, send, ref };
}

async function templateRow(id: number) {
  const [row] = await (await getDb()).select().from(templates).where(eq(templates.id, id));
  return row;
}
async function changesOf(templateId: number) {
  const db = await getDb();
  return db.select().from(templateChanges).where(eq(templateChanges.templateId, templateId)).orderBy(asc(templateChanges.id));
}
async function eventsOf(teamId: number, type: string) {
  const db = await getDb();
  return db
    .select()
    .from(events)
    .where(and(eq(events.teamId, teamId), eq(events.type, type)))
    .orderBy(asc(events.id));
}
async function deadLettersOf(teamId: number) {
  const db = await getDb();
  return db.select().from(webhookDeadLetters).where(eq(webhookDeadLetters.teamId, teamId)).orderBy(asc(webhookDeadLetters.id));
}
const listed = async (s: Awaited<ReturnType<typeof setup>>, sendable: boolean) =>
  (await s.api.get(`/api/v1/message_templates?wa_number=${s.number.number}${sendable ? "&sendable=1" : ""}`)).body.data as {
    name: string;
    status: string;
    rejected_reason: string;
  }[];

describe("template status webhooks", () => {
  it("a rejected template is not offered, its sends answer 422 with Meta's reason, and re-approved it sends again", async () => {
    const s = await setup();
    expect((await s.send()).status).toBe(200);

    const rejected = await s.post([templateStatusUpdate(s.ref, "REJECTED", "INVALID_FORMAT")]);
    expect(rejected.status).toBe(200);
    expect(rejected.body.data).toEqual({ messages: 0, statuses: 0, updates: 1, ignored: 0 });
    expect(await templateRow(s.template.id)).toMatchObject({ status: "REJECTED", rejectedReason: "INVALID_FORMAT" });

    // The send form's list (sendable=1) leaves it out; the full list shows why.
    expect((await listed(s, true)).map((t) => t.name)).not.toContain(s.template.name);
    expect((await listed(s, false)).find((t) => t.name === s.template.name)).toMatchObject({
      status: "REJECTED",
      rejected_reason: "INVALID_FORMAT",
    });

    const bad = await s.api.get(`/api/v1/message_templates?wa_number=${s.number.number}&sendable=yes`);
    expect(bad.status).toBe(422);
    expect(bad.body.errors.sendable).toEqual(["El campo sendable debe ser 0 o 1."]);

    const text = templateNotApproved(s.template.name, "REJECTED", "INVALID_FORMAT");
    expect(text).toBe(`La plantilla ${s.template.name} no está aprobada (estado: REJECTED). Motivo: INVALID_FORMAT.`);
    const single = await s.send();
    expect(single.status).toBe(422);
    expect(single.body).toEqual({ message: text, errors: { template_name: [text] } });
    const bulk = await s.api.post("/api/v1/message_templates/send_bulk", {
      wa_number: s.number.number,
      template_name: s.template.name,
      recipients: [{ destination: "573001112222", header_param: header, body_params: bodyParams }],
    });
    expect(bulk.status).toBe(422);
    expect(bulk.body.errors.template_name).toEqual([text]);
    const label = await createLabel(s.team.id);
    await createContact(s.team.id, { labelIds: [label.id] });
    const broadcast = await s.api.post("/api/v1/broadcasts", {
      name: "Rechazada",
      wa_number: s.number.number,
      template_name: s.template.name,
      header_param: header,
      body_params: bodyParams,
      audience: { labels_any: [label.id] },
    });
    expect(broadcast.status).toBe(422);
    expect(broadcast.body.errors.template_name).toEqual([text]);

    // PAUSED without a reason of Meta's: the status alone.
    await s.post([templateStatusUpdate(s.ref, "PAUSED")]);
    expect((await s.send()).body.message).toBe(`La plantilla ${s.template.name} no está aprobada (estado: PAUSED).`);

    const approved = await s.post([templateStatusUpdate(s.ref, "APPROVED")]);
    expect(approved.body.data.updates).toBe(1);
    expect(await templateRow(s.template.id)).toMatchObject({ status: "APPROVED", rejectedReason: "NONE" });
    expect((await listed(s, true)).map((t) => t.name)).toContain(s.template.name);
    expect((await s.send()).status).toBe(200);

    expect((await changesOf(s.template.id)).map((c) => [c.field, c.previous, c.value, c.reason])).toEqual([
      ["status", "APPROVED", "REJECTED", "INVALID_FORMAT"],
      ["status", "REJECTED", "PAUSED", null],
      ["status", "PAUSED", "APPROVED", null],
    ]);
    const streamed = (await eventsOf(s.team.id, "template.updated")).map((e) => e.data as Record<string, any>);
    expect(streamed.map((d) => [d.status, d.sendable, d.change.field])).toEqual([
      ["REJECTED", false, "status"],
      ["PAUSED", false, "status"],
      ["APPROVED", true, "status"],
    ]);
    expect(streamed[0]).toMatchObject({ id: s.template.externalId, name: s.template.name, rejected_reason: "INVALID_FORMAT" });
  });

  it("finds a template by name and language when Meta's id is new to us, and learns the id", async () => {
    const team = await createTeam();
    const number = await createCloudNumber(team.id);
    const template = await createTemplate(team.id, { waNumberId: number.id, language: "en_US" });
    const res = await graph.postAccountChanges(hook, number.secrets.appSecret, number.businessAccountId, [
      // Meta writes some languages with a hyphen.
      templateStatusUpdate({ id: 777_001, name: template.name, language: "en-US" }, "DISABLED", "NONE", {
        disable_info: { disable_date: "1700000000" },
      }),
    ]);
    expect(res.body.data.updates).toBe(1);
    expect(await templateRow(template.id)).toMatchObject({ status: "DISABLED", externalId: "777001" });
  });

  it("pauses a broadcast still sending when Meta pauses its template, and does not resume it on re-approval", async () => {
    const s = await setup();
    const label = await createLabel(s.team.id);
    await createContact(s.team.id, { labelIds: [label.id] });
    await createContact(s.team.id, { labelIds: [label.id] });
    const created = await s.api.post("/api/v1/broadcasts", {
      name: "A mitad",
      wa_number: s.number.number,
      template_name: s.template.name,
      header_param: header,
      body_params: bodyParams,
      audience: { labels_any: [label.id] },
    });
    expect(created.status, created.text).toBe(201);
    const id: number = created.body.data.id;
    const get = async () => (await s.api.get(`/api/v1/broadcasts/${id}`)).body.data;
    await waitFor(get, (b) => b.counts.queued === 2);
    expect((await get()).status).toBe("SENDING");

    await s.post([templateStatusUpdate(s.ref, "PAUSED", "NONE", { other_info: { title: "FIRST_PAUSE", description: "Calidad baja" } })]);
    const paused = await get();
    expect(paused.status).toBe("PAUSED");
    expect(paused.paused_reason).toBe(`Meta cambió el estado de la plantilla ${s.template.name} a PAUSED. Motivo: Calidad baja.`);
    // Its messages left the queue, as with an agent's pause.
    const db = await getDb();
    const queued = await db
      .select({ id: messages.id })
      .from(messages)
      .where(and(eq(messages.broadcastId, id), eq(messages.status, "QUEUED"), isNull(messages.nextAttemptAt)));
    expect(queued).toHaveLength(2);
    const announced = (await eventsOf(s.team.id, "broadcast.updated")).map((e) => (e.data as { status: string }).status);
    expect(announced.at(-1)).toBe("PAUSED");

    // No resume while the template cannot be sent.
    const refused = await s.api.post(`/api/v1/broadcasts/${id}/resume`);
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(templateNotApproved(s.template.name, "PAUSED", "Calidad baja"));

    // Re-approved: the broadcast stays paused until an agent resumes it.
    await s.post([templateStatusUpdate(s.ref, "APPROVED")]);
    expect((await get()).status).toBe("PAUSED");
    expect((await s.api.post(`/api/v1/broadcasts/${id}/resume`)).status).toBe(200);
    const resumed = await get();
    expect(resumed.status).toBe("SENDING");
    expect(resumed.paused_reason).toBeNull();
  });
});

describe("template quality and category webhooks", () => {
  it("stores quality changes with their history", async () => {
    const s = await setup();
    await s.post([templateQualityUpdate(s.ref, "UNKNOWN", "YELLOW")]);
    await s.post([templateQualityUpdate(s.ref, "YELLOW", "RED")]);
    expect((await templateRow(s.template.id)).qualityScore).toBe("RED");
    expect((await changesOf(s.template.id)).map((c) => [c.field, c.previous, c.value])).toEqual([
      ["quality", "UNKNOWN", "YELLOW"],
      ["quality", "YELLOW", "RED"],
    ]);
    // Quality alone does not stop sends: Meta pauses a template through its status.
    expect((await s.send()).status).toBe(200);
  });

  it("UTILITY → MARKETING applies the marketing opt-out at once; an announced change is kept, not applied", async () => {
    const s = await setup("UTILITY");
    const optedOut = await createContact(s.team.id, { marketingOptedOutAt: new Date(), marketingOptOutReason: "keyword" });
    expect((await s.send(optedOut.customerNumber!)).status).toBe(200);

    const soon = Math.floor(Date.now() / 1000) + 86_400;
    await s.post([templateCategoryImpending(s.ref, "UTILITY", "MARKETING", soon)]);
    expect((await templateRow(s.template.id)).category).toBe("UTILITY");
    expect((await s.send(optedOut.customerNumber!)).status).toBe(200);

    const changed = await s.post([templateCategoryUpdate(s.ref, "UTILITY", "MARKETING")]);
    expect(changed.body.data.updates).toBe(1);
    expect((await templateRow(s.template.id)).category).toBe("MARKETING");
    const refused = await s.send(optedOut.customerNumber!);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe(MARKETING_OPTED_OUT);
    expect((await s.send()).status).toBe(200);

    expect((await changesOf(s.template.id)).map((c) => [c.field, c.previous, c.value])).toEqual([
      ["category_pending", "UTILITY", "MARKETING"],
      ["category", "UTILITY", "MARKETING"],
    ]);
    const streamed = (await eventsOf(s.team.id, "template.updated")).map((e) => e.data as Record<string, any>);
    expect(streamed.map((d) => [d.category, d.change.field])).toEqual([
      ["UTILITY", "category_pending"],
      ["MARKETING", "category"],
    ]);
  });
});

describe("a template Meta moves to MARKETING, with sends already queued", () => {
  it("does not send what was queued for an opted-out contact; the others leave", async () => {
    const s = await setup("UTILITY");
    const optedOut = await createContact(s.team.id, { marketingOptedOutAt: new Date(), marketingOptOutReason: "agent" });
    const held = await s.send(optedOut.customerNumber!);
    const other = await s.send("573005550101");
    expect([held.status, other.status]).toEqual([200, 200]);

    await s.post([templateCategoryUpdate(s.ref, "UTILITY", "MARKETING")]);
    const worker = workers.start({ teamIds: [s.team.id] });
    const status = async (updateId: string) => (await s.api.get(`/api/v1/updates/${updateId}`)).body.data;
    const failed = await waitFor(
      () => status(held.body.data.update_id),
      (m) => m.status === "FAILED",
    );
    await waitFor(
      () => status(other.body.data.update_id),
      (m) => m.status !== "QUEUED",
    );
    await worker.stop();
    expect(failed.error).toMatchObject({ code: MARKETING_OPTED_OUT_AT_SEND.code, title: MARKETING_OPTED_OUT_AT_SEND.title });
    const sentTo = graph.sends(s.number.phoneNumberId).map((r) => r.body.to);
    expect(sentTo).toEqual(["573005550101"]);
  });
});

describe("number health webhooks", () => {
  it("stores a RED quality and a tier drop on the number, with history and events", async () => {
    const s = await setup();
    const flagged = await s.post([phoneNumberQualityUpdate(s.number.number, "FLAGGED", "TIER_1K")]);
    expect(flagged.body.data).toEqual({ messages: 0, statuses: 0, updates: 1, ignored: 0 });
    // A display number written with + and spaces is the same number.
    const pretty = `+${s.number.number.slice(0, 2)} ${s.number.number.slice(2)}`;
    await s.post([phoneNumberQualityUpdate(pretty, "DOWNGRADE", "TIER_250", "TIER_1K")]);

    const numbers = (await s.api.get("/api/v1/wa_numbers")).body.data as Record<string, unknown>[];
    expect(numbers.find((n) => n.number === s.number.number)).toMatchObject({
      quality_rating: "RED",
      messaging_limit_tier: "TIER_250",
      health_updated_at: expect.any(String),
    });
    const db = await getDb();
    const history = await db
      .select()
      .from(numberHealthChanges)
      .where(eq(numberHealthChanges.waNumberId, s.number.id))
      .orderBy(asc(numberHealthChanges.id));
    expect(
      history.map((h) => [h.event, h.previousQualityRating, h.qualityRating, h.previousMessagingLimitTier, h.messagingLimitTier]),
    ).toEqual([
      ["FLAGGED", null, "RED", null, "TIER_1K"],
      ["DOWNGRADE", "RED", "RED", "TIER_1K", "TIER_250"],
    ]);
    expect((await eventsOf(s.team.id, "number.health")).map((e) => e.data)).toEqual([
      {
        wa_number: s.number.number,
        quality_rating: "RED",
        messaging_limit_tier: "TIER_1K",
        event: "FLAGGED",
        field: "phone_number_quality_update",
      },
      {
        wa_number: s.number.number,
        quality_rating: "RED",
        messaging_limit_tier: "TIER_250",
        event: "DOWNGRADE",
        field: "phone_number_quality_update",
      },
    ]);

    // An account event (no number named: every number of the account) is kept too.
    await s.post([accountUpdate("ACCOUNT_VIOLATION", { violation_info: { violation_type: "SCAM" } })]);
    const [last] = await db
      .select()
      .from(numberHealthChanges)
      .where(eq(numberHealthChanges.waNumberId, s.number.id))
      .orderBy(asc(numberHealthChanges.id))
      .offset(2);
    expect(last).toMatchObject({
      field: "account_update",
      event: "ACCOUNT_VIOLATION",
      qualityRating: "RED",
      messagingLimitTier: "TIER_250",
    });
  });
});

describe("malformed, unknown and foreign items", () => {
  it("sets a malformed or unknown item aside with its reason and applies its neighbours", async () => {
    const s = await setup();
    const other = await createTemplate(s.team.id, { waNumberId: s.number.id, externalId: String(800_000 + ++metaSeq) });
    const res = await s.post([
      templateStatusUpdate(s.ref, "PAUSED"),
      { field: "message_template_status_update", value: { event: { nested: true }, message_template_id: 1 } },
      templateStatusUpdate({ id: 123, name: "no_existe", language: "es_CO" }, "APPROVED"),
      { field: "message_template_quality_update", value: { new_quality_score: "RED" } },
      templateStatusUpdate(s.ref, "SOMETHING_NEW"),
      phoneNumberQualityUpdate("15550001111", "FLAGGED", "TIER_1K"),
      templateQualityUpdate({ id: other.externalId!, name: other.name, language: other.language }, "GREEN", "YELLOW"),
      // Another field of the account (not one of ours): ignored as before.
      { field: "business_capability_update", value: { max_daily_conversation_per_phone: 1000 } },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ messages: 0, statuses: 0, updates: 2, ignored: 0 });
    expect((await templateRow(s.template.id)).status).toBe("PAUSED");
    expect((await templateRow(other.id)).qualityScore).toBe("YELLOW");
    const dead = await deadLettersOf(s.team.id);
    expect(dead.map((d) => d.reason)).toEqual([
      expect.stringMatching(/^message_template_status_update: event /),
      "message_template_status_update: no template id 123, no_existe (es_CO) of this business account's numbers",
      "message_template_quality_update: no message_template_id, nor message_template_name and message_template_language",
      "message_template_status_update: unknown event SOMETHING_NEW",
      "phone_number_quality_update: no number 15550001111 in this business account",
    ]);
    expect(dead.every((d) => d.kind === "rejected" && d.waNumberId === s.number.id)).toBe(true);
    expect(JSON.parse(dead[1].raw)).toEqual({
      field: "message_template_status_update",
      value: expect.objectContaining({ message_template_name: "no_existe" }),
    });
  });

  it("ignores an account that is not ours and one signed by another app's secret", async () => {
    const s = await setup();
    const intruder = await createCloudNumber((await createTeam()).id);
    const foreign = await s.post([templateStatusUpdate(s.ref, "DISABLED")], { waba: "WABA-not-ours" });
    expect(foreign.body.data).toEqual({ messages: 0, statuses: 0, updates: 0, ignored: 1 });
    // Signed by another tenant's secret: that tenant does not own this account.
    const crossed = await s.post([templateStatusUpdate(s.ref, "DISABLED")], { secret: intruder.secrets.appSecret });
    expect(crossed.body.data).toEqual({ messages: 0, statuses: 0, updates: 0, ignored: 1 });
    expect((await templateRow(s.template.id)).status).toBe("APPROVED");
  });
});

describe("replays", () => {
  it("a redelivered batch changes nothing, and a late older status does not move the status back", async () => {
    const s = await setup();
    const t0 = Math.floor(Date.now() / 1000);
    const batch: AccountChange[] = [
      templateStatusUpdate(s.ref, "PAUSED"),
      templateStatusUpdate(s.ref, "FLAGGED"),
      templateQualityUpdate(s.ref, "GREEN", "RED"),
      templateCategoryUpdate(s.ref, "UTILITY", "MARKETING"),
      phoneNumberQualityUpdate(s.number.number, "FLAGGED", "TIER_1K"),
      accountUpdate("ACCOUNT_VIOLATION"),
    ];
    const first = await s.post(batch, { time: t0 });
    expect(first.body.data.updates).toBe(6);
    const counts = async () => ({
      changes: (await changesOf(s.template.id)).length,
      health: (await (await getDb()).select().from(numberHealthChanges).where(eq(numberHealthChanges.waNumberId, s.number.id))).length,
      events: (await eventsOf(s.team.id, "template.updated")).length + (await eventsOf(s.team.id, "number.health")).length,
      broadcasts: (await eventsOf(s.team.id, "broadcast.updated")).length,
    });
    const before = await counts();
    expect(before).toMatchObject({ changes: 4, health: 2, events: 6 });
    const again = await s.post(batch, { time: t0 });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ messages: 0, statuses: 0, updates: 0, ignored: 0 });
    expect(await counts()).toEqual(before);
    expect(await deadLettersOf(s.team.id)).toEqual([]);

    // Approved later; then an APPROVED→… status from before that arrives late is not applied.
    await s.post([templateStatusUpdate(s.ref, "APPROVED")], { time: t0 + 60 });
    const late = await s.post([templateStatusUpdate(s.ref, "DISABLED")], { time: t0 + 30 });
    expect(late.body.data.updates).toBe(0);
    expect((await templateRow(s.template.id)).status).toBe("APPROVED");
  });

  it("applies Meta's status from the same second as ours: Meta's times are whole seconds", async () => {
    const s = await setup();
    // Submitted from the editor 700 ms into a second (our time has milliseconds)…
    const t0 = Math.floor(Date.now() / 1000);
    const db = await getDb();
    await db
      .update(templates)
      .set({ status: "PENDING", statusChangedAt: new Date(t0 * 1000 + 700) })
      .where(eq(templates.id, s.template.id));
    // …and approved by Meta within that second: its webhook says t0, not older than the submission.
    const approved = await s.post([templateStatusUpdate(s.ref, "APPROVED")], { time: t0 });
    expect(approved.body.data.updates).toBe(1);
    expect((await templateRow(s.template.id)).status).toBe("APPROVED");
    // A status from an earlier second is still older than ours, and is not applied.
    await db
      .update(templates)
      .set({ status: "PENDING", statusChangedAt: new Date(t0 * 1000 + 700) })
      .where(eq(templates.id, s.template.id));
    const earlier = await s.post([templateStatusUpdate(s.ref, "REJECTED")], { time: t0 - 1 });
    expect(earlier.body.data.updates).toBe(0);
    expect((await templateRow(s.template.id)).status).toBe("PENDING");
  });
});

describe("the fast lane", () => {
  it("applies the account's changes as the route does", async () => {
    const s = await setup();
    const lane = http.createServer((_req, res) => {
      res.statusCode = 418;
      res.end("next");
    });
    installWebhookFastLane(lane);
    await new Promise<void>((resolve) => lane.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(lane.address() as AddressInfo).port}${FAST_LANE_PATH}`;
      const res = await graph.postAccountChanges(url, s.number.secrets.appSecret, s.number.businessAccountId, [
        templateStatusUpdate(s.ref, "IN_APPEAL"),
        phoneNumberQualityUpdate(s.number.number, "UPGRADE", "TIER_10K", "TIER_1K"),
      ]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ message: "Webhook recibido.", data: { messages: 0, statuses: 0, updates: 2, ignored: 0 } });
      expect((await templateRow(s.template.id)).status).toBe("IN_APPEAL");
      expect((await s.send()).body.message).toBe(`La plantilla ${s.template.name} no está aprobada (estado: IN_APPEAL).`);
    } finally {
      await new Promise((resolve) => lane.close(resolve));
    }
  });

  it("builds Meta's envelope", () => {
    expect(accountEnvelope("WABA1", [accountUpdate("VERIFIED_ACCOUNT")], 1_700_000_000)).toEqual({
      object: "whatsapp_business_account",
      entry: [{ id: "WABA1", time: 1_700_000_000, changes: [{ field: "account_update", value: { event: "VERIFIED_ACCOUNT" } }] }],
    });
  });
});
