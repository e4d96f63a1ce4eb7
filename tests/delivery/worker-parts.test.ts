import { afterEach, describe, expect, it, onTestFinished, vi } from "vitest";
import { eq } from "drizzle-orm";
import { getDb } from "@/db/client";
import { messages, waNumbers } from "@/db/schema";
import { withSecrets } from "@/lib/channels/credentials";
import { sandboxAdapter } from "@/lib/channels/sandbox-channel";
import { createClaimLoop } from "@/lib/delivery/claim-loop";
import { startChores } from "@/lib/chores/schedule";
import { createPacer } from "@/lib/delivery/pacing";
import { claimMessages, findNumbersByIds, type Claim } from "@/lib/delivery/repo";
import { createSettle } from "@/lib/delivery/settle";
import { sendFailureOutcome, sendWrites, settleSend, type Sending } from "@/lib/delivery/send-task";
import { resumeWalks } from "@/lib/delivery/walks";
import { DEMO_WAMID_PREFIX } from "@/lib/seed/demo-ids";
import { createContact, createTeam, createTemplate } from "../helpers/factories";
import {
  createCloudNumber,
  createQueuedMessage,
  createSandboxNumber,
  eventsOfMessage,
  messageById,
  waitFor,
} from "../helpers/delivery-factories";

/**
 * The worker's three parts on their own (lib/delivery/claim-loop.ts, pacing.ts, settle.ts).
 * The claim loop is driven by this test's own claim and run functions (it only schedules) on
 * fake timers, so "nothing happened in 200 ms" means four poll intervals went by, not that the
 * machine happened to be quick; pacing and settling run against the database, as in the worker.
 */
/** Lets `ms` of fake time pass, running every timer due and the promises they settle. */
const elapse = (ms: number) => vi.advanceTimersByTimeAsync(ms);
/** The writes of a kind whose items this test only counts done (`skip` writes nothing). */
const noWrites = { ok: async () => [], retry: async () => [], fail: async () => [] };

async function queued(count: number, opts: { mps?: number; sandbox?: boolean } = {}) {
  const team = await createTeam();
  const number = opts.sandbox
    ? await createSandboxNumber(team.id, { messagesPerSecond: opts.mps ?? 80 })
    : await createCloudNumber(team.id, { messagesPerSecond: opts.mps ?? 80 });
  const contact = await createContact(team.id);
  const template = await createTemplate(team.id);
  const rows = [];
  for (let i = 0; i < count; i++) rows.push(await createQueuedMessage({ teamId: team.id, waNumberId: number.id, contact, template }));
  const [row] = await findNumbersByIds(await getDb(), [number.id]);
  return { team, number: withSecrets(row), rows };
}

/** Claims the team's due messages as the worker does (its clock before asking sets leaseEnd). */
async function claim(teamId: number, n: number, leaseMs: number): Promise<Claim[]> {
  const at = Date.now();
  return (await claimMessages(await getDb(), { limit: n, leaseMs, aheadSec: 60, teamIds: [teamId] }))
    .map((c) => ({ ...c, leaseEnd: at + leaseMs }))
    .sort((x, y) => x.id - y.id);
}

describe("claim loop", () => {
  afterEach(() => void vi.useRealTimers());

  /** A queue of `total` fake claims, each held by the run function until the test releases it. */
  function harness(total: number, concurrency: number, pollMs = 50) {
    let next = 1;
    const asked: number[] = [];
    const held = new Map<number, () => void>();
    let maxInHand = 0;
    const stop = new AbortController();
    const loop = createClaimLoop({
      pollMs,
      signal: stop.signal,
      tasks: [
        {
          name: "messages",
          concurrency,
          refillAt: Math.floor(concurrency / 2),
          claim: async (limit) => {
            asked.push(limit);
            const claims: Claim[] = [];
            while (claims.length < limit && next <= total) claims.push({ id: next++, attempts: 1 });
            return claims;
          },
          run: async (claims, settle) => {
            maxInHand = Math.max(maxInHand, loop.inHand().messages);
            await Promise.all(
              claims.map((c) => new Promise<void>((r) => held.set(c.id, () => (held.delete(c.id), void settle(c, { kind: "skip" }), r())))),
            );
          },
          writes: noWrites,
        },
      ],
    });
    return {
      loop,
      asked,
      held,
      stop,
      maxInHand: () => maxInHand,
      release: (n: number) => [...held.values()].slice(0, n).forEach((f) => f()),
    };
  }

  it("keeps at most `concurrency` messages in hand and tops up only once half of them are free", async () => {
    vi.useFakeTimers();
    const h = harness(100, 4);
    h.loop.start();
    await elapse(0);
    expect(h.held.size).toBe(4);
    expect(h.asked).toEqual([4]);
    h.release(1);
    // Four poll intervals (50 ms each) go by with three in hand: one free slot is not worth a claim of its own.
    await elapse(200);
    expect(h.asked).toEqual([4]);
    expect(h.loop.inHand().messages).toBe(3);
    // The second free slot wakes the loop at once, without waiting for its next poll.
    h.release(1);
    await elapse(0);
    expect(h.held.size).toBe(4);
    expect(h.asked).toEqual([4, 2]);
    expect(h.maxInHand()).toBeLessThanOrEqual(4);
    h.release(4);
    await elapse(0);
    expect(h.asked.length).toBeGreaterThanOrEqual(3);
    h.stop.abort();
    const stopped = h.loop.stop();
    h.release(10);
    await stopped;
  });

  it("polls again at once after a full claim, and waits the poll interval after a short one", async () => {
    vi.useFakeTimers();
    const h = harness(0, 4, 400);
    h.loop.start();
    await elapse(399);
    // The first claim found nothing: the loop is idle for the 400 ms interval, and claims again at its end.
    expect(h.asked.length).toBe(1);
    await elapse(1);
    expect(h.asked.length).toBe(2);
    h.stop.abort();
    await h.loop.stop();

    const full = harness(1000, 2, 400);
    // Every claim comes back full and is settled at once: the loop claims again without waiting
    // the poll interval (30 ms for three more claims, where one interval is 400).
    full.loop.start();
    await elapse(0);
    for (let i = 0; i < 3; i++) {
      full.release(2);
      await elapse(10);
    }
    expect(full.asked.length).toBeGreaterThan(3);
    full.stop.abort();
    const stopped = full.loop.stop();
    full.release(2);
    await stopped;
  });

  it("stop() resolves only once every batch handed on has finished; halt() returns at once", async () => {
    vi.useFakeTimers();
    const h = harness(2, 2);
    h.loop.start();
    await elapse(0);
    expect(h.held.size).toBe(2);
    h.stop.abort();
    let stopped = false;
    const done = h.loop.stop().then(() => (stopped = true));
    // Two poll intervals later the batch is still held, and so is the stop.
    await elapse(100);
    expect(stopped).toBe(false);
    h.release(2);
    await done;
    expect(h.loop.inHand().messages).toBe(0);

    const k = harness(2, 2);
    k.loop.start();
    await elapse(0);
    expect(k.held.size).toBe(2);
    k.loop.halt();
    // Two poll intervals after the halt: no claim since.
    await elapse(100);
    expect(k.asked).toEqual([2]);
    k.release(2);
  });
});

describe("task registry and chores", () => {
  it("polls every kind: one whose claim fails costs the others nothing, and a kind with everyMs is claimed no oftener", async () => {
    const stop = new AbortController();
    const claimed: Record<string, number> = { broken: 0, often: 0, rare: 0 };
    const ran: number[] = [];
    let next = 1;
    const kind = (name: string, everyMs?: number) => ({
      name,
      concurrency: 2,
      everyMs,
      claim: async () => {
        claimed[name]++;
        if (name === "broken") throw Object.assign(new Error("boom"), { code: "57P01" });
        return [{ id: next++ }];
      },
      perform: async (i: { id: number }) => {
        ran.push(i.id);
        return { kind: "skip" as const };
      },
      writes: noWrites,
    });
    const loop = createClaimLoop({ pollMs: 20, signal: stop.signal, tasks: [kind("broken"), kind("often"), kind("rare", 400)] });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    loop.start();
    await waitFor(
      () => claimed.often,
      (n) => n >= 10,
    );
    stop.abort();
    await loop.stop();
    errors.mockRestore();
    expect(claimed.broken).toBeGreaterThanOrEqual(10);
    // 10+ polls of 20 ms and more: the 400 ms kind was claimed at the first poll and at most once or twice since.
    expect(claimed.rare).toBeGreaterThanOrEqual(1);
    expect(claimed.rare).toBeLessThan(claimed.often / 3);
    expect(ran.length).toBe(claimed.often + claimed.rare);
    expect(loop.inHand()).toEqual({ broken: 0, often: 0, rare: 0 });
  });

  it("runs an atStart chore at once, never overlaps a chore with itself, and stop() waits for the run in progress", async () => {
    vi.useFakeTimers();
    onTestFinished(() => void vi.useRealTimers());
    let runs = 0;
    let inRun = 0;
    let maxInRun = 0;
    let release: () => void = () => {};
    const stopChores = startChores([
      {
        name: "slow",
        everyMs: 10,
        atStart: true,
        run: async () => {
          runs++;
          maxInRun = Math.max(maxInRun, ++inRun);
          await new Promise<void>((r) => (release = r));
          inRun--;
        },
      },
    ]);
    expect(runs).toBe(1);
    await elapse(100);
    // Ten intervals went by while the first run was held: none of them started a second one.
    expect(runs).toBe(1);
    let stopped = false;
    const done = stopChores().then(() => (stopped = true));
    await elapse(50);
    expect(stopped).toBe(false);
    release();
    await done;
    expect(maxInRun).toBe(1);
    // Five intervals after the stop: none ran.
    await elapse(50);
    expect(runs).toBe(1);
  });
});

describe("pacing", () => {
  const pacer = () => createPacer({ pacingHeadroom: 0.5, holdMs: () => 3000, afterSlotMs: () => 2000, killed: () => false });

  it("reserves consecutive slots (1 + headroom)/mps apart on the number's shared schedule, each lease stretched over its slot", async () => {
    const { team, number } = await queued(3, { mps: 10 });
    const claims = await claim(team.id, 3, 1000);
    expect(claims).toHaveLength(3);
    const p = pacer();
    const slotted = await p.reserve(claims.map((c) => ({ c, number })));
    expect(slotted.map((s) => s.r.c.id)).toEqual(claims.map((c) => c.id));
    const steps = slotted.slice(1).map((s, i) => s.slotAt - slotted[i].slotAt);
    for (const step of steps) expect(step).toBeCloseTo(150, 3);
    expect(slotted[0].slotAt).toBeGreaterThanOrEqual(Date.now() - 1000);
    // The shared schedule now ends after the last slot: the next reservation (any worker's) starts there.
    const [row] = await (await getDb()).select().from(waNumbers).where(eq(waNumbers.id, number.id));
    expect(row.nextSendAt!.getTime()).toBeCloseTo(slotted[2].slotAt + 150, -1);
    expect(p.scheduleEndOf(number.id)).toBeCloseTo(slotted[2].slotAt + 150, 3);
    // A 1 s claim cannot cover a send that needs 2 s after its slot: each lease reaches slot + hold.
    for (const s of slotted) expect((await messageById(s.r.c.id)).lockedUntil!.getTime()).toBeGreaterThanOrEqual(s.slotAt + 3000 - 5);
  });

  it("leaves out a claim another worker took over meanwhile", async () => {
    const { team, number, rows } = await queued(2, { mps: 10 });
    const claims = await claim(team.id, 2, 1000);
    // Re-claimed elsewhere: its attempts (the fence) moved on.
    await (await getDb()).update(messages).set({ attempts: 5 }).where(eq(messages.id, rows[1].id));
    const slotted = await pacer().reserve(claims.map((c) => ({ c, number })));
    expect(slotted.map((s) => s.r.c.id)).toEqual([rows[0].id]);
  });

  it("a send that wakes past its slot takes a fresh one; a stopping worker does not wait at all", async () => {
    const { team, number } = await queued(1, { mps: 10 });
    const [c] = await claim(team.id, 1, 30_000);
    const p = pacer();
    const stop = new AbortController();
    const before = Date.now();
    expect(await p.waitTurn({ c, number }, before - 1000, stop.signal, () => "running")).toBe("send");
    // The stale slot was not used: a fresh one was reserved on the number's schedule.
    expect(p.scheduleEndOf(number.id)).toBeGreaterThan(before);
    expect(await p.waitTurn({ c, number }, Date.now() + 60_000, AbortSignal.abort(), () => "stopping")).toBe("stopping");
    expect(await p.waitTurn({ c, number }, Date.now() + 60_000, AbortSignal.abort(), () => "killed")).toBe("killed");
  });
});

describe("settling", () => {
  const opts = { maxAttempts: 3, backoffBaseMs: 100, backoffCapMs: 100, uncertainGraceMs: 60_000 };
  const settle = (o: { killed?: boolean } = {}) => createSettle("messages", sendWrites, () => o.killed ?? false);
  const sending = (c: Claim, teamId: number, numberDigits: string): Sending => ({ ...c, teamId, numberDigits });
  const failure = (uncertain = false) => ({
    ok: false as const,
    retryable: true,
    error: { code: null, title: uncertain ? "Timeout" : "HTTP 500" },
    uncertain,
  });
  const walks = { sandboxStepMs: 100, killed: () => false };

  it("a retryable failure goes back to the queue after its backoff; one that may have reached the provider waits the uncertain grace", async () => {
    const { team, number, rows } = await queued(2);
    const [a, b] = await claim(team.id, 2, 30_000);
    const s = settle();
    const t = Date.now();
    await s(sending(a, team.id, number.number), sendFailureOutcome(a, failure(), opts));
    await s(sending(b, team.id, number.number), sendFailureOutcome(b, failure(true), opts));
    const [ra, rb] = [await messageById(rows[0].id), await messageById(rows[1].id)];
    expect(ra).toMatchObject({ status: "QUEUED", lockedUntil: null, error: { code: null, title: "HTTP 500" } });
    expect(ra.nextAttemptAt!.getTime()).toBeLessThan(t + 5000);
    expect(rb).toMatchObject({ status: "QUEUED", lockedUntil: null, error: { code: null, title: "Timeout" } });
    expect(rb.nextAttemptAt!.getTime()).toBeGreaterThanOrEqual(t + 59_000);
  });

  it("a permanent failure, or a retryable one on the last attempt, is FAILED with its event", async () => {
    const { team, number, rows } = await queued(1);
    const [c] = await claim(team.id, 1, 30_000);
    await settle()(
      sending(c, team.id, number.number),
      sendFailureOutcome(c, { retryable: false, error: { code: 131026, title: "Message undeliverable" } }, opts),
    );
    expect(await messageById(rows[0].id)).toMatchObject({ status: "FAILED", error: { code: 131026, title: "Message undeliverable" } });
    expect((await eventsOfMessage(rows[0].id)).map((e) => e.status)).toEqual(["FAILED"]);

    const last = await queued(1);
    const [d] = await claim(last.team.id, 1, 30_000);
    await settle()(
      sending({ ...d, attempts: 3 }, last.team.id, last.number.number),
      sendFailureOutcome({ ...d, attempts: 3 }, failure(), opts),
    );
    // The fence: attempts 3 is not this claim's, so nothing moves…
    expect((await messageById(last.rows[0].id)).status).toBe("QUEUED");
    await (await getDb()).update(messages).set({ attempts: 3 }).where(eq(messages.id, last.rows[0].id));
    await settle()(
      sending({ ...d, attempts: 3 }, last.team.id, last.number.number),
      sendFailureOutcome({ ...d, attempts: 3 }, failure(), opts),
    );
    // …and on its own last attempt the retryable error is final.
    expect((await messageById(last.rows[0].id)).status).toBe("FAILED");
  });

  it("an accepted send is SENDED once with the provider's id, and the sandbox walk reports through the status path to READED", async () => {
    const { team, number, rows } = await queued(1, { sandbox: true });
    const [c] = await claim(team.id, 1, 30_000);
    const s = settle();
    const r = { c: sending(c, team.id, number.number), number, adapter: sandboxAdapter };
    expect(await settleSend(s, r, { kind: "ok", providerMessageId: "wamid.sandbox.unit-1" }, walks)).toBe(true);
    expect(await messageById(rows[0].id)).toMatchObject({ status: "SENDED", providerMessageId: "wamid.sandbox.unit-1", lockedUntil: null });
    // The same claim again (settled elsewhere first): not SENDED twice.
    expect(await settleSend(s, r, { kind: "ok", providerMessageId: "wamid.sandbox.unit-2" }, walks)).toBe(false);
    const done = await waitFor(
      () => messageById(rows[0].id),
      (m) => m.status === "READED",
      5000,
    );
    expect(done.providerMessageId).toBe("wamid.sandbox.unit-1");
    expect((await eventsOfMessage(rows[0].id)).map((e) => e.status)).toEqual(["SENDED", "SENT", "DELIVERED", "READED"]);
  });

  it("a killed worker settles nothing", async () => {
    const { team, number, rows } = await queued(1);
    const [c] = await claim(team.id, 1, 30_000);
    await settle({ killed: true })(sending(c, team.id, number.number), sendFailureOutcome(c, failure(), opts));
    expect(await messageById(rows[0].id)).toMatchObject({ status: "QUEUED", error: null });
    expect((await messageById(rows[0].id)).lockedUntil).not.toBeNull();
  });

  it("resumes a status walk that stopped (a restart), from the status it reached, in one worker only", async () => {
    const { team, rows } = await queued(1, { sandbox: true });
    const db = await getDb();
    await db
      .update(messages)
      .set({ status: "SENT", providerMessageId: "wamid.sandbox.stopped", statusUpdatedAt: new Date(Date.now() - 3600_000) })
      .where(eq(messages.id, rows[0].id));
    expect(await resumeWalks(walks, [team.id])).toBe(1);
    // Leased to the first: a second sweep (another worker) leaves it alone.
    expect(await resumeWalks(walks, [team.id])).toBe(0);
    const done = await waitFor(
      () => messageById(rows[0].id),
      (m) => m.status === "READED",
      5000,
    );
    expect(done.lockedUntil).toBeNull();
    expect((await eventsOfMessage(rows[0].id)).map((e) => e.status)).toEqual(["DELIVERED", "READED"]);
  });

  it("leaves the demo conversation's seeded rows alone: its SENDED example stays SENDED after a restart", async () => {
    const { team, rows } = await queued(2, { sandbox: true });
    const db = await getDb();
    const stale = new Date(Date.now() - 3600_000);
    await db
      .update(messages)
      .set({ status: "SENDED", providerMessageId: `${DEMO_WAMID_PREFIX}0042`, statusUpdatedAt: stale })
      .where(eq(messages.id, rows[0].id));
    await db
      .update(messages)
      .set({ status: "SENDED", providerMessageId: "wamid.sandbox.real", statusUpdatedAt: stale })
      .where(eq(messages.id, rows[1].id));
    // Only the real send is taken over.
    expect(await resumeWalks(walks, [team.id])).toBe(1);
    await waitFor(
      () => messageById(rows[1].id),
      (m) => m.status === "READED",
      5000,
    );
    const seeded = await messageById(rows[0].id);
    expect(seeded.status).toBe("SENDED");
    expect(seeded.lockedUntil).toBeNull();
  });
});
