import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CANCELLED_TITLE, cannotCancel, cannotPause, cannotResume } from "@/lib/broadcasts/schemas";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { openSse, seenBeforeMarker, streamOpened } from "../helpers/sse";
import { createCloudNumber, waitFor } from "../helpers/delivery-factories";
import { startFakeGraph, type FakeGraph } from "../fakes/graph";
import { workerPool } from "../helpers/workers";
import { broadcastMessages, broadcastTeam, body, createContact } from "./helpers";
import { createCampaign } from "../helpers/factories";
import { getDb } from "@/db/client";
import { broadcasts, messages, webhookDeliveries } from "@/db/schema";
import { and, eq, inArray } from "drizzle-orm";
import { sweepBroadcasts } from "@/lib/broadcasts/lifecycle";
import { messageStatusPayload } from "@/lib/outgoing-webhooks/queue";

let server: TestServer;
let graph: FakeGraph;
const workers = workerPool({ pollMs: 100, leaseMs: 2000, backoffBaseMs: 20, backoffCapMs: 80 });

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

/**
 * Resolves once no worker holds a message of the broadcast: each is sent, failed, or QUEUED with
 * no lease (given back). From then on nothing of it leaves unless it is made due again, so a
 * count of the sends taken now is final.
 */
const noneInHand = (teamId: number, id: number) =>
  waitFor(
    () => broadcastMessages(teamId, id),
    (rows) => rows.every((m) => m.status !== "QUEUED" || m.lockedUntil === null),
    15_000,
    50,
  );

const worker = (teamId: number) => workers.start({ teamIds: [teamId] });

/** A team with a Cloud API number paced at `mps`, and `n` contacts holding one label. */
async function world(n: number, mps: number) {
  const t = await broadcastTeam();
  const number = await createCloudNumber(t.team.id, { messagesPerSecond: mps });
  for (let i = 0; i < n; i++) await createContact(t.team.id, { name: `Cliente ${i}`, labelIds: [t.labels.vip.id] });
  const api = apiClient(server.url, t.team.token);
  const create = (extra: Record<string, unknown> = {}) =>
    api.post(B, body({ wa_number: number.number, template_name: t.template.name, audience: { labels_any: [t.labels.vip.id] }, ...extra }));
  /** The update_ids the fake Graph API received for this number (each send carries its own). */
  const received = () => graph.sends(number.phoneNumberId).map((r) => r.body.biz_opaque_callback_data as string);
  return { ...t, number, api, create, received };
}

describe("broadcast lifecycle against the worker and the fake Graph API", () => {
  it("pause stops the sends, resume sends the rest once each, and the broadcast ends DONE", async () => {
    const w = await world(16, 4);
    const created = await w.create();
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    worker(w.team.id);
    await waitFor(w.received, (r) => r.length >= 3, 15_000);

    const paused = await w.api.post(`${B}/${id}/pause`);
    expect(paused.status).toBe(200);
    expect(paused.body).toMatchObject({ message: "Difusión pausada.", data: { id, status: "PAUSED" } });
    const atPause = w.received().length;
    // The claims a worker held are given back parked (8 more sends at 4/s would have left in 2 s,
    // were it still going): none of them left after the pause.
    await noneInHand(w.team.id, id);
    expect(w.received().length).toBe(atPause);
    expect(atPause).toBeLessThan(16);
    const parked = (await broadcastMessages(w.team.id, id)).filter((m) => m.status === "QUEUED");
    expect(parked.length).toBe(16 - atPause);
    expect(parked.every((m) => m.nextAttemptAt === null)).toBe(true);
    expect((await w.api.post(`${B}/${id}/pause`)).body.message).toBe(cannotPause("PAUSED"));

    const resumed = await w.api.post(`${B}/${id}/resume`);
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.status).toBe("SENDING");
    expect((await w.api.post(`${B}/${id}/resume`)).status).toBe(409);
    const done = await waitFor(
      async () => (await w.api.get(`${B}/${id}`)).body.data,
      (b) => b.status === "DONE",
      45_000,
      200,
    );
    expect(done.counts).toMatchObject({ recipients: 16, queued: 0, sended: 16, cancelled: 0 });
    expect(done.finished_at).not.toBeNull();
    const ids = w.received();
    expect(ids).toHaveLength(16);
    expect(new Set(ids).size).toBe(16);
    const rows = await broadcastMessages(w.team.id, id);
    expect(new Set(ids)).toEqual(new Set(rows.map((r) => r.updateId)));

    const timeline = await w.api.get(`${B}/${id}/timeline?bucket=minute`);
    expect(timeline.status).toBe(200);
    expect(timeline.body.data.reduce((s: number, p: { sent: number }) => s + p.sent, 0)).toBe(16);
    expect((await w.api.post(`${B}/${id}/cancel`)).body).toEqual({ message: cannotCancel("DONE") });
  });

  it("cancel: nothing is sent after it, and what was not sent is FAILED «Difusión cancelada»", async () => {
    const w = await world(16, 4);
    const created = await w.create();
    const id = created.body.data.id;
    worker(w.team.id);
    await waitFor(w.received, (r) => r.length >= 3, 15_000);

    const cancelled = await w.api.post(`${B}/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({ message: "Difusión cancelada.", data: { status: "CANCELLED" } });
    expect(cancelled.body.data.finished_at).not.toBeNull();
    const atCancel = w.received().length;

    // Settled: the messages a worker held during the cancel are failed by the sweep. With nothing
    // QUEUED and none in a worker's hand, none is in flight or left to send: nothing left after the cancel.
    const final = await waitFor(
      async () => (await w.api.get(`${B}/${id}`)).body.data,
      (b) => b.counts.queued === 0,
      10_000,
      200,
    );
    await noneInHand(w.team.id, id);
    expect(w.received().length).toBe(atCancel);
    const sent = new Set(w.received());
    const rows = await broadcastMessages(w.team.id, id);
    for (const m of rows) {
      if (sent.has(m.updateId)) expect(m.status).toBe("SENDED");
      else expect([m.status, m.error]).toEqual(["FAILED", { code: null, title: CANCELLED_TITLE }]);
    }
    expect(final.counts).toMatchObject({ recipients: 16, sended: sent.size, cancelled: 16 - sent.size, failed: 0 });
    expect(final.failures_by_code).toEqual([]);
    const listed = await w.api.get(`${B}/${id}/recipients?status=CANCELLED&per_page=100`);
    expect(listed.body.data).toHaveLength(16 - sent.size);
    expect(listed.body.data[0]).toMatchObject({ status: "FAILED", error: { code: null, title: CANCELLED_TITLE } });

    for (const action of ["pause", "resume", "cancel"] as const) {
      const res = await w.api.post(`${B}/${id}/${action}`);
      expect(res.status).toBe(409);
    }
    expect((await w.api.post(`${B}/${id}/resume`)).body.message).toBe(cannotResume("CANCELLED"));
    expect((await w.api.post(`${B}/${id}/cancel`)).body.message).toBe(cannotCancel("CANCELLED"));
  });

  it("a scheduled broadcast waits for its time, then sends", async () => {
    const w = await world(4, 20);
    const wk = worker(w.team.id);
    const at = new Date(Date.now() + 2500);
    const created = await w.create({ scheduled_at: at.toISOString() });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ status: "SCHEDULED", scheduled_at: at.toISOString(), started_at: null });
    const id = created.body.data.id;
    const rows = await broadcastMessages(w.team.id, id);
    expect(rows.every((m) => m.status === "QUEUED" && m.nextAttemptAt?.getTime() === at.getTime())).toBe(true);
    // Before its time, a sweep and a whole poll of the worker start and claim nothing.
    await sweepBroadcasts([w.team.id]);
    await wk.nextPoll();
    expect(w.received()).toHaveLength(0);
    expect((await w.api.get(`${B}/${id}`)).body.data.status).toBe("SCHEDULED");

    await waitFor(w.received, (r) => r.length === 4, 30_000);
    expect(graph.sends(w.number.phoneNumberId).every((r) => r.at >= at.getTime())).toBe(true);
    const done = await waitFor(
      async () => (await w.api.get(`${B}/${id}`)).body.data,
      (b) => b.status === "DONE",
      10_000,
      200,
    );
    expect(done.started_at).toBe(at.toISOString());
  });

  it("a scheduled broadcast cancelled before its time sends nothing", async () => {
    const w = await world(3, 20);
    const wk = worker(w.team.id);
    // Far enough ahead that a loaded machine still cancels before the hour.
    const at = Date.now() + 5000;
    const created = await w.create({ scheduled_at: new Date(at).toISOString() });
    const id = created.body.data.id;
    const cancelled = await w.api.post(`${B}/${id}/cancel`);
    expect(cancelled.body.data.counts).toMatchObject({ queued: 0, cancelled: 3 });
    // Then its hour comes: the stored times move into the past (the database's clock is what the
    // sweep and the claim compare them with), and a sweep and a whole poll of the worker later
    // nothing was started or sent.
    const past = new Date(Date.now() - 1000);
    const db = await getDb();
    await db.update(broadcasts).set({ scheduledAt: past }).where(eq(broadcasts.id, id));
    await db
      .update(messages)
      .set({ nextAttemptAt: past })
      .where(and(eq(messages.teamId, w.team.id), eq(messages.broadcastId, id)));
    await sweepBroadcasts([w.team.id]);
    await wk.nextPoll();
    expect(w.received()).toHaveLength(0);
    expect((await w.api.get(`${B}/${id}`)).body.data.status).toBe("CANCELLED");
  });
});

describe("a cancelled broadcast's messages reach the integrator's webhook", () => {
  it("each cancelled message is a message.status FAILED delivery to its campaign's webhook, as a failed send is", async () => {
    const w = await world(3, 20);
    const campaign = await createCampaign(w.team.id, { webhookUrl: "https://hooks.example.com/campana" });
    const other = await world(2, 20);
    const created = await w.create({ scheduled_at: new Date(Date.now() + 60_000).toISOString(), campaign_id: campaign.id });
    expect(created.status).toBe(201);
    const id = created.body.data.id;
    // Another team's broadcast without a webhook: cancelled too, and nothing of it is reported.
    const quiet = await other.create({ scheduled_at: new Date(Date.now() + 60_000).toISOString() });
    expect((await other.api.post(`${B}/${quiet.body.data.id}/cancel`)).status).toBe(200);
    expect((await w.api.post(`${B}/${id}/cancel`)).status).toBe(200);

    const rows = await broadcastMessages(w.team.id, id);
    expect(rows).toHaveLength(3);
    const db = await getDb();
    const deliveries = await db
      .select()
      .from(webhookDeliveries)
      .where(inArray(webhookDeliveries.teamId, [w.team.id, other.team.id]));
    expect(deliveries).toHaveLength(3);
    for (const row of rows) {
      const d = deliveries.find((x) => x.messageId === row.id)!;
      expect(d).toMatchObject({
        teamId: w.team.id,
        targetKind: "campaign",
        targetId: campaign.id,
        url: campaign.webhookUrl,
        event: "message.status",
      });
      const payload = d.payload as { event: string; occurred_at: string; data: unknown };
      expect(payload.event).toBe("message.status");
      expect(Number.isNaN(Date.parse(payload.occurred_at))).toBe(false);
      // The very payload a failed send's delivery carries (lib/outgoing-webhooks/queue.ts).
      expect(payload.data).toEqual(messageStatusPayload(row, w.number.number, "QUEUED"));
      expect(payload.data).toMatchObject({ status: "FAILED", error: { code: null, title: CANCELLED_TITLE } });
    }
  });
});

describe("broadcast.updated events", () => {
  it("reach the team's stream on creation and each lifecycle change, and no other team's", async () => {
    const w = await world(3, 20);
    const stranger = await broadcastTeam();
    const mine = await openSse(`${server.url}/api/v1/events`, { authorization: `Bearer ${w.team.token}` });
    const theirs = await openSse(`${server.url}/api/v1/events`, { authorization: `Bearer ${stranger.team.token}` });
    await streamOpened(mine);
    await streamOpened(theirs);
    const created = await w.create({ scheduled_at: new Date(Date.now() + 60_000).toISOString() });
    const id = created.body.data.id;
    const first = await mine.next((e) => e.event === "broadcast.updated");
    // Already the real counts: the dashboard puts an event's counts in its cache as they come.
    expect(JSON.parse(first.data)).toMatchObject({ id, status: "SCHEDULED", counts: { recipients: 3, queued: 3 } });
    await w.api.post(`${B}/${id}/pause`);
    const paused = await mine.next((e) => e.event === "broadcast.updated" && JSON.parse(e.data).status === "PAUSED");
    expect(JSON.parse(paused.data)).toEqual({
      id,
      status: "PAUSED",
      counts: { recipients: 3, rejected: 0, queued: 3, sended: 0, sent: 0, delivered: 0, readed: 0, failed: 0, cancelled: 0, replied: 0 },
    });
    // Up to a marker of the stranger's own team, written after those changes: none of them arrived.
    expect((await seenBeforeMarker(theirs, server.url, stranger.team)).filter((e) => e.event === "broadcast.updated")).toEqual([]);
    mine.close();
    theirs.close();
  });
});
