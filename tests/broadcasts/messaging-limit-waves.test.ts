import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { getDb, transaction } from "@/db/client";
import { contactLabels, contacts, messages, waNumbers } from "@/db/schema";
import { admitWithinLimit, planWaves, numberBudget } from "@/lib/broadcasts/messaging-limit";
import { claimMessages, loadMessages, markSendedMany } from "@/lib/delivery/repo";
import { createBroadcastRequest } from "@/lib/broadcasts/schemas";
import { createBroadcast, getBroadcast, previewMessagingLimit } from "@/lib/broadcasts/service";
import { cancelSandboxWalks } from "@/lib/channels/sandbox-channel";
import { applyNumberHealth } from "@/lib/numbers/health";
import { startFakeGraph, graphError, type FakeGraph } from "../fakes/graph";
import { createCloudNumber, createSandboxNumber, uniqueNumber, waitFor } from "../helpers/delivery-factories";
import { tokenCtx } from "../helpers/send-factories";
import { workerPool } from "../helpers/workers";
import { broadcastMessages, broadcastTeam, body } from "./helpers";

// A short rolling window (MESSAGING_LIMIT_WINDOW_MS, read at each use) so waves come in seconds.
const WINDOW_MS = 2500;
let graph: FakeGraph;
// Sandbox status walks are left far off: only the sends matter here.
const workers = workerPool({ pollMs: 50, sandboxStepMs: 600_000, backoffBaseMs: 20, backoffCapMs: 80 });

beforeAll(async () => {
  process.env.MESSAGING_LIMIT_WINDOW_MS = String(WINDOW_MS);
  graph = await startFakeGraph();
  process.env.GRAPH_API_BASE_URL = graph.url;
  process.env.GRAPH_API_VERSION = "v21.0";
  process.env.GRAPH_TIMEOUT_MS = "2000";
});
afterAll(async () => {
  await workers.stopAll();
  cancelSandboxWalks();
  await graph.close();
  delete process.env.MESSAGING_LIMIT_WINDOW_MS;
});

/** `n` contacts holding the label, written in a few multi-row inserts. */
async function audience(teamId: number, labelId: number, n: number) {
  const db = await getDb();
  const ids: number[] = [];
  for (let i = 0; i < n; i += 1000) {
    const rows = Array.from({ length: Math.min(1000, n - i) }, (_, j) => {
      const number = uniqueNumber("52");
      return { teamId, name: `Cliente ${i + j}`, customerNumber: number, customerId: `cus_${number}` };
    });
    const made = await db.insert(contacts).values(rows).returning({ id: contacts.id });
    await db.insert(contactLabels).values(made.map((c) => ({ teamId, contactId: c.id, labelId })));
    ids.push(...made.map((c) => c.id));
  }
  return ids;
}

/** A team, a number at `tier` and `n` contacts; `broadcast()` creates the broadcast to them all. */
async function world(n: number, tier: string, cloud = false) {
  const t = await broadcastTeam();
  const number = cloud
    ? await createCloudNumber(t.team.id, { messagesPerSecond: 2000 })
    : await createSandboxNumber(t.team.id, { messagesPerSecond: 2000 });
  const db = await getDb();
  await db.update(waNumbers).set({ messagingLimitTier: tier }).where(eq(waNumbers.id, number.id));
  const contactIds = await audience(t.team.id, t.labels.vip.id, n);
  const broadcast = async () => {
    const input = createBroadcastRequest.parse(
      body({ wa_number: number.number, template_name: t.template.name, audience: { labels_any: [t.labels.vip.id] } }),
    );
    return (await createBroadcast({ ctx: tokenCtx(t.team.id), input })).data;
  };
  const phoneNumberId = cloud ? (number as Awaited<ReturnType<typeof createCloudNumber>>).phoneNumberId : undefined;
  return { ...t, number, phoneNumberId, contactIds, broadcast };
}

const settled = (teamId: number, id: number, n: number, timeoutMs = 60_000) =>
  waitFor(
    () => broadcastMessages(teamId, id),
    (rows) => rows.length === n && rows.every((m) => m.status !== "QUEUED"),
    timeoutMs,
    100,
  );

/** The most stamps in any window of `windowMs` (each stamp opens one: the rolling count). */
function mostInAnyWindow(stamps: number[], windowMs: number) {
  const s = [...stamps].sort((a, b) => a - b);
  let most = 0;
  for (let i = 0, j = 0; i < s.length; i++) {
    while (s[j] <= s[i] - windowMs) j++;
    most = Math.max(most, i - j + 1);
  }
  return most;
}

describe("the plan of waves", () => {
  it("a first wave of what is left, then up to the limit every window from when room frees", () => {
    expect(planWaves({ limit: 1000, used: 0, pending: 3000, startMs: 0, firstFreeMs: null, windowMs: 100 })).toEqual({
      waves: [
        { size: 1000, startsAtMs: 0 },
        { size: 1000, startsAtMs: 100 },
        { size: 1000, startsAtMs: 200 },
      ],
      finishesAtMs: 200,
    });
    expect(planWaves({ limit: 1000, used: 600, pending: 900, startMs: 10, firstFreeMs: 40, windowMs: 100 }).waves).toEqual([
      { size: 400, startsAtMs: 10 },
      { size: 500, startsAtMs: 40 },
    ]);
    expect(planWaves({ limit: null, used: 5, pending: 7, startMs: 3, firstFreeMs: null, windowMs: 100 }).waves).toEqual([
      { size: 7, startsAtMs: 3 },
    ]);
  });
});

/** Runs `fn` with the rolling window set to `ms`, then puts the file's back. */
async function withWindow<T>(ms: number, fn: () => Promise<T>): Promise<T> {
  process.env.MESSAGING_LIMIT_WINDOW_MS = String(ms);
  try {
    return await fn();
  } finally {
    process.env.MESSAGING_LIMIT_WINDOW_MS = String(WINDOW_MS);
  }
}

/**
 * One delivery round as the worker's send task does it, minus the pacing and the HTTP request:
 * claim what is due (claimMessages), pass the messaging limit gate (admitWithinLimit), commit the
 * admitted as SENDED (markSendedMany, the settle path's writer). Returns how many were claimed.
 * Thousands of sends through the sandbox take a minute on a loaded machine; this takes seconds.
 */
async function deliveryRound(teamId: number, waNumberId: number): Promise<number> {
  const db = await getDb();
  const claims = await claimMessages(db, { limit: 256, leaseMs: 30_000, aheadSec: 10, teamIds: [teamId] });
  if (!claims.length) return 0;
  const byId = new Map(claims.map((c) => [c.id, c]));
  const rows = await loadMessages(db, [...byId.keys()]);
  const admitted = await admitWithinLimit({
    teamId,
    waNumberId,
    items: rows.map((r) => ({ id: r.id, attempts: byId.get(r.id)!.attempts, contactId: r.contactId })),
  });
  await transaction((tx) =>
    markSendedMany(
      tx,
      [...admitted].map((id) => ({ c: byId.get(id)!, teamId, providerMessageId: `wamid.waves.${id}` })),
    ),
  );
  return claims.length;
}

describe("the wizard's preview (GET /api/v1/broadcasts/messaging-limit)", () => {
  it("answers the number's budget and the waves of a broadcast of that size; another team's number is 404", async () => {
    const w = await world(0, "TIER_1K");
    const ctx = tokenCtx(w.team.id);
    const preview = await previewMessagingLimit({ ctx, input: { wa_number: w.number.number, recipients: 2500 } });
    expect(preview).toMatchObject({
      tier: "TIER_1K",
      limit: 1000,
      used: 0,
      remaining: 1000,
      recipients: 2500,
      window_hours: WINDOW_MS / 3_600_000,
    });
    expect(preview.waves.map((x) => x.size)).toEqual([1000, 1000, 500]);
    expect(preview.finishes_at).toBe(preview.waves[2].starts_at);
    const other = await world(0, "TIER_1K");
    await expect(previewMessagingLimit({ ctx, input: { wa_number: other.number.number, recipients: 1 } })).rejects.toMatchObject({
      status: 404,
    });
  });
});

describe("a broadcast beyond its number's messaging limit", () => {
  it("3,000 recipients on a 1,000-a-day tier go in 3 waves, never over 1,000 in a window, each once", async () => {
    // A window of an hour, moved by hand: once a wave is out and the rest waits, the number's
    // stamps and the waiting messages' due times are moved an hour back (what an hour passing
    // does to them), so the next wave comes at once. `virtual` holds each stamp on the clock that
    // includes those jumps, for the rolling-window check.
    const HOUR = 3_600_000;
    await withWindow(HOUR, async () => {
      const w = await world(3000, "TIER_1K");
      const created = await w.broadcast();
      expect(created.messaging_limit).toMatchObject({ tier: "TIER_1K", limit: 1000, used: 0, remaining: 1000, pending: 3000 });
      const planned = created.messaging_limit!.waves.map((x) => Date.parse(x.starts_at));
      expect(created.messaging_limit!.waves.map((x) => x.size)).toEqual([1000, 1000, 1000]);
      expect([planned[1] - planned[0], planned[2] - planned[1]]).toEqual([HOUR, HOUR]);

      const db = await getDb();
      const virtual = new Map<number, number>();
      const waves: number[] = [];
      let jumped = 0;
      for (let wave = 0; wave < 5; wave++) {
        // Two rounds at once (two workers) until nothing is due: this wave.
        while ((await Promise.all([deliveryRound(w.team.id, w.number.id), deliveryRound(w.team.id, w.number.id)])).some((n) => n > 0));
        const rows = await broadcastMessages(w.team.id, created.id);
        const fresh = rows.filter((r) => r.status === "SENDED" && !virtual.has(r.id));
        for (const r of fresh) virtual.set(r.id, r.limitCountedAt!.getTime() + jumped);
        waves.push(fresh.length);
        if (wave === 0) {
          // The rest waits for room: not failed, still QUEUED, due in an hour; the plan says so.
          const between = await getBroadcast({ ctx: tokenCtx(w.team.id), input: { id: created.id } });
          expect(between.counts).toMatchObject({ sended: 1000, queued: 2000, failed: 0 });
          expect(between.messaging_limit).toMatchObject({ used: 1000, remaining: 0, pending: 2000, waiting: 2000 });
          expect(between.messaging_limit!.waves.map((x) => x.size)).toEqual([1000, 1000]);
          expect(Date.parse(between.messaging_limit!.next_wave_at!)).toBeGreaterThan(Date.now() + HOUR - 60_000);
        }
        if (rows.every((r) => r.status !== "QUEUED")) break;
        await db.execute(sql`
          UPDATE messages SET limit_counted_at = limit_counted_at - ${HOUR} * interval '1 millisecond'
          WHERE team_id = ${w.team.id} AND wa_number_id = ${w.number.id} AND limit_counted_at IS NOT NULL`);
        await db.execute(sql`
          UPDATE messages SET next_attempt_at = next_attempt_at - ${HOUR} * interval '1 millisecond'
          WHERE team_id = ${w.team.id} AND wa_number_id = ${w.number.id} AND status = 'QUEUED' AND next_attempt_at > now()`);
        jumped += HOUR;
      }
      expect(waves).toEqual([1000, 1000, 1000]);
      expect(mostInAnyWindow([...virtual.values()], HOUR)).toBeLessThanOrEqual(1000);

      // All 3,000 accounted for: each contact once, each sent once, none failed.
      const rows = await broadcastMessages(w.team.id, created.id);
      expect(rows).toHaveLength(3000);
      expect(new Set(rows.map((r) => r.contactId)).size).toBe(3000);
      expect(rows.every((r) => r.status === "SENDED")).toBe(true);
      expect(new Set(rows.map((r) => r.providerMessageId)).size).toBe(3000);
      // Waiting cost no attempt: each was claimed for its send once more than it was given back.
      expect(rows.every((r) => r.attempts === 1)).toBe(true);
    });
  }, 120_000);

  it("the worker sends in waves through the sandbox", async () => {
    await withWindow(4000, async () => {
      const w = await world(120, "TIER_50");
      const created = await w.broadcast();
      expect(created.messaging_limit!.waves.map((x) => x.size)).toEqual([50, 50, 20]);
      const worker = workers.start({ teamIds: [w.team.id] });
      const rows = await settled(w.team.id, created.id, 120);
      // A worker per test, stopped once its broadcast is out (an idle one still polls the database).
      await worker.stop();
      expect(rows.every((r) => r.status === "SENDED" && r.attempts === 1)).toBe(true);
      expect(new Set(rows.map((r) => r.providerMessageId)).size).toBe(120);
      const stamps = rows.map((r) => r.limitCountedAt!.getTime());
      expect(mostInAnyWindow(stamps, 4000)).toBeLessThanOrEqual(50);
      // 120 customers at 50 a window: the last can open no sooner than two windows after the first
      // (how the waves spread within that depends on the machine's speed, not on the gate).
      expect(Math.max(...stamps) - Math.min(...stamps)).toBeGreaterThanOrEqual(2 * 4000);
    });
  }, 120_000);

  it("customers whose service window is open take no room", async () => {
    await withWindow(60_000, async () => {
      const w = await world(70, "TIER_50");
      const db = await getDb();
      // 20 customers wrote within the last 24 h (the conversation trigger keeps last_inbound_at).
      await db.insert(messages).values(
        w.contactIds.slice(0, 20).map((contactId) => ({
          teamId: w.team.id,
          waNumberId: w.number.id,
          contactId,
          direction: "INBOUND" as const,
          sender: "CUSTOMER" as const,
          type: "text",
          status: "RECEIVED" as const,
          payload: { text: "hola" },
        })),
      );
      const created = await w.broadcast();
      expect(created.messaging_limit!.waves.length).toBe(2); // the plan cannot know who will have written by then
      const worker = workers.start({ teamIds: [w.team.id] });
      const rows = await settled(w.team.id, created.id, 70);
      // A worker per test, stopped once its broadcast is out (an idle one still polls the database).
      await worker.stop();
      const stamps = rows.map((r) => r.limitCountedAt!.getTime());
      // One wave: the 50 without a window fill the limit, the 20 with one go beside them.
      expect(Math.max(...stamps) - Math.min(...stamps)).toBeLessThan(60_000);
      expect(rows.every((r) => r.attempts === 1)).toBe(true);
      const budget = await numberBudget({ teamId: w.team.id, waNumberId: w.number.id, tier: "TIER_50" });
      expect(budget).toMatchObject({ limit: 50, used: 50, remaining: 0 });
    });
  }, 120_000);

  it("a tier Meta raises sends what waits at once", async () => {
    await withWindow(10 * 60_000, async () => {
      const w = await world(120, "TIER_50");
      const created = await w.broadcast();
      const worker = workers.start({ teamIds: [w.team.id] });
      const first = await waitFor(
        () => broadcastMessages(w.team.id, created.id),
        (rows) =>
          rows.filter((r) => r.status === "SENDED").length === 50 &&
          rows.filter((r) => r.status === "QUEUED" && !r.lockedUntil).length === 70,
        60_000,
        50,
      );
      // The 70 beyond wait for the window (ten minutes here), unfailed, their attempt uncounted.
      const waiting = first.filter((r) => r.status === "QUEUED");
      expect(waiting.every((r) => r.attempts === 0 && r.nextAttemptAt!.getTime() > Date.now() + 5 * 60_000)).toBe(true);

      const db = await getDb();
      const [n] = await db.select().from(waNumbers).where(eq(waNumbers.id, w.number.id));
      await transaction((tx) =>
        applyNumberHealth(
          tx,
          { teamId: w.team.id, numbers: [{ id: n.id, number: n.number }] },
          { kind: "number_quality", displayNumber: n.number, event: "UPGRADE", tier: "TIER_250", previousTier: "TIER_50" },
          { at: null, raw: {} },
        ),
      );
      const rows = await settled(w.team.id, created.id, 120);
      // A worker per test, stopped once its broadcast is out (an idle one still polls the database).
      await worker.stop();
      expect(rows.every((r) => r.status === "SENDED")).toBe(true);
      expect(new Set(rows.map((r) => r.providerMessageId)).size).toBe(120);
      const b = await getBroadcast({ ctx: tokenCtx(w.team.id), input: { id: created.id } });
      expect(b.counts.failed).toBe(0);
    });
  }, 120_000);

  it("Meta's per-user marketing limit (131049) is not retried and is reported per recipient", async () => {
    await withWindow(60_000, async () => {
      const w = await world(3, "TIER_1K", true);
      graph.script(graphError(400, 131049, "This message was not delivered to maintain healthy ecosystem engagement."));
      const created = await w.broadcast();
      const worker = workers.start({ teamIds: [w.team.id] });
      const rows = await settled(w.team.id, created.id, 3);
      // A worker per test, stopped once its broadcast is out (an idle one still polls the database).
      await worker.stop();
      const failed = rows.filter((r) => r.status === "FAILED");
      expect(failed).toHaveLength(1);
      expect(failed[0].error?.code).toBe(131049);
      expect(failed[0].attempts).toBe(1);
      expect(graph.sends(w.phoneNumberId)).toHaveLength(3);
      const b = await getBroadcast({ ctx: tokenCtx(w.team.id), input: { id: created.id } });
      expect(b.failures_by_code).toEqual([expect.objectContaining({ code: 131049, count: 1 })]);
      // A failed send opened no conversation: it takes no room.
      const db = await getDb();
      const counted = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(messages)
        .where(and(eq(messages.teamId, w.team.id), eq(messages.broadcastId, created.id), eq(messages.status, "SENDED")));
      const budget = await numberBudget({ teamId: w.team.id, waNumberId: w.number.id, tier: "TIER_1K" });
      expect(budget.used).toBe(counted[0].n);
    });
  }, 120_000);
});
