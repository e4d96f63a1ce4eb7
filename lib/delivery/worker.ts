import { setMaxListeners } from "node:events";
import { getDb } from "@/db/client";
import type { ProviderError } from "@/db/schema";
import { withSecrets } from "@/lib/channels/credentials";
import { adapterFor, walkingProviders } from "./channels";
import type { ChannelNumber, OutboundTemplate, SendOutcome } from "@/lib/channels/types";
import { claimDeliveries, targetSecret } from "@/lib/webhooks/deliveries-repo";
import { deliverOne } from "@/lib/webhooks/deliver";
import { backoffMs } from "./backoff";
import { deliveryConfig } from "./config";
import { batchLookups, buildOutbound, type Lookups } from "./outbound";
import {
  claimMessages,
  claimStoppedWalks,
  findNumbersByIds,
  leaseSlots,
  loadMessages,
  markFailed,
  release,
  reschedule,
  reserveSlots,
  type Claim,
  type MessageRow,
} from "./repo";
import { sendedBatcher } from "./sended-batch";
import { applyStatusUpdates, emitStatusChange } from "./status";

export type WorkerOptions = {
  /** Idle wait between polls (WORKER_POLL_MS, default 1000). */
  pollMs?: number;
  /** Lease of a claim before the send's own lease extension (default 30 s). */
  leaseMs?: number;
  /** Messages and webhook events handled at once by this worker (default 256 / 8). */
  concurrency?: number;
  webhookConcurrency?: number;
  /** Attempts before FAILED (DELIVERY_MAX_ATTEMPTS, default 8). */
  maxAttempts?: number;
  backoffBaseMs?: number;
  backoffCapMs?: number;
  /** Fraction added to each pacing slot: 0.05 sends at most 95 % of messages_per_second. */
  pacingHeadroom?: number;
  /** Seconds of sends per number one claim may take (default 1). */
  claimAheadSec?: number;
  sandboxStepMs?: number;
  /** How long a message whose send may have reached the provider waits for its status webhook (DELIVERY_UNCERTAIN_GRACE_S). */
  uncertainGraceMs?: number;
  /** How often stopped in-process status walks (the sandbox's, after a restart) are looked for (default 30 s; also at start). */
  walkSweepMs?: number;
  webhookTimeoutMs?: number;
  webhookMaxAttempts?: number;
  /** Serve only these teams (a dedicated worker for a large tenant; tests on a shared database). */
  teamIds?: number[];
};

export type Worker = {
  start(): void;
  /** Graceful: stops claiming, gives back claims still waiting for their slot, lets sends in flight finish. */
  stop(): Promise<void>;
  /** Crash simulation for tests: stops at once and writes nothing more; leases are left to expire. */
  kill(): void;
};

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    if (signal.aborted || ms <= 0) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });

/** A one-shot wake-up the loop can wait on, re-armed by each wait. */
function signal() {
  let resolve: (() => void) | undefined;
  return {
    next: () => new Promise<void>((r) => (resolve = r)),
    wake: () => {
      resolve?.();
      resolve = undefined;
    },
  };
}

/**
 * The delivery worker: claims due messages and webhook events from Postgres with a lease,
 * paces sends per number through a shared slot (wa_numbers.next_send_at), sends through the
 * number's channel adapter and moves each message with a fenced transition (see repo.ts).
 */
export function createWorker(options: WorkerOptions = {}): Worker {
  const o = {
    pollMs: options.pollMs ?? deliveryConfig.pollMs,
    leaseMs: options.leaseMs ?? 30_000,
    concurrency: options.concurrency ?? deliveryConfig.concurrency,
    webhookConcurrency: options.webhookConcurrency ?? 8,
    maxAttempts: options.maxAttempts ?? deliveryConfig.maxAttempts,
    backoffBaseMs: options.backoffBaseMs ?? 2_000,
    backoffCapMs: options.backoffCapMs ?? 10 * 60_000,
    pacingHeadroom: options.pacingHeadroom ?? 0.05,
    claimAheadSec: options.claimAheadSec ?? 1,
    sandboxStepMs: options.sandboxStepMs ?? deliveryConfig.sandboxStepMs,
    uncertainGraceMs: options.uncertainGraceMs ?? deliveryConfig.uncertainGraceS * 1000,
    walkSweepMs: options.walkSweepMs ?? 30_000,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 10_000,
    webhookMaxAttempts: options.webhookMaxAttempts ?? 10,
  };
  let running = false;
  let killed = false;
  const stopping = new AbortController();
  // Every waiting send listens for the stop: far more than the default ten listeners.
  setMaxListeners(0, stopping.signal);
  const inFlight = new Set<Promise<void>>();
  let hooksInFlight = 0;
  let msgsInFlight = 0;
  // At capacity, the loop waits for half the concurrency to come free, then claims that many at
  // once: claiming as each single send finishes would make every claim (and its slot
  // reservation) a round trip per message again; sleeping a whole poll interval would idle.
  const refillAt = Math.max(1, Math.floor(o.concurrency / 2));
  const capacity = signal();
  let loopDone: Promise<void> = Promise.resolve();

  const track = (p: Promise<void>) => {
    inFlight.add(p);
    p.finally(() => inFlight.delete(p)).catch(() => {});
  };

  async function fail(c: Claim, teamId: number, numberDigits: string, error: ProviderError) {
    const db = await getDb();
    await db.transaction(async (tx) => {
      const row = await markFailed(tx, c, teamId, error);
      if (row) await emitStatusChange(tx, row, "QUEUED", numberDigits);
    });
  }

  async function settleFailure(c: Claim, teamId: number, numberDigits: string, f: Extract<SendOutcome, { ok: false }>) {
    if (killed) return;
    if (f.retryable && c.attempts < o.maxAttempts) {
      // A send that may have reached the provider waits for its status webhook, as after a crash.
      const delay = backoffMs(c.attempts, o.backoffBaseMs, o.backoffCapMs, f.retryAfterMs);
      await reschedule(c, f.uncertain ? Math.max(delay, o.uncertainGraceMs) : delay, f.error);
    } else {
      await fail(c, teamId, numberDigits, f.error);
    }
  }

  type Ready = { c: Claim; m: MessageRow; number: ChannelNumber; adapter: ReturnType<typeof adapterFor>; message: OutboundTemplate };
  const sended = sendedBatcher(() => killed);
  const SENDED_MARGIN_MS = 5000;
  // The lease must outlive the slot wait and the request, or another worker could send it too.
  // After the request, the SENDED commit may wait behind the batch being committed (sended-batch.ts):
  // at least SENDED_MARGIN_MS for it, whatever the claim lease.
  const holdMs = () => deliveryConfig.graphTimeoutMs + Math.max(o.leaseMs, SENDED_MARGIN_MS);

  /** Checks a claimed message and builds its send; undefined when it was settled (or skipped) here. */
  async function prepare(c: Claim, m: MessageRow | undefined, number: ChannelNumber | undefined, lookups: Lookups): Promise<Ready | undefined> {
    if (!m || m.status !== "QUEUED" || m.attempts !== c.attempts) return;
    if (!number) return void (await fail(c, m.teamId, "", { code: null, title: "The sending number no longer exists" }));
    if (c.attempts > o.maxAttempts) {
      // Claimed again after crashes ate every attempt: stop here rather than risk yet another send.
      return void (await fail(c, m.teamId, number.number, m.error ?? { code: null, title: `Gave up after ${o.maxAttempts} attempts` }));
    }
    const adapter = adapterFor(number.provider);
    const built = await buildOutbound(m, number, adapter, lookups);
    if (!built.ok) return void (await settleFailure(c, m.teamId, number.number, built));
    return { c, m, number, adapter, message: built.message };
  }

  // Where each number's schedule ended at this worker's last reservation: the estimate that
  // lets leases be stretched before slots are reserved (see reserve).
  const scheduleEnd = new Map<number, number>();
  const LEASE_MARGIN_MS = 1000;
  const lateMs = Math.max(2, o.pacingHeadroom * 500);

  /**
   * Leases first (when needed at all), slots second. The lease extension is a durable commit (a WAL flush); done after
   * the reservation it would make the first slots late on arrival, and late slots are given back
   * (sendAt), which on a busy database would send nearly everything down the one-by-one path.
   * So each lease is stretched over an estimate of its slot (this worker's view of the number's
   * schedule + a margin), then all slots are reserved in one quick statement, and only the claims
   * whose real slot lies beyond their estimate (other workers reserved meanwhile) get a second
   * extension; their slots are by then in the future. Returns the owned claims with their slots.
   */
  async function reserve(number: ChannelNumber, items: Ready[]): Promise<{ r: Ready; slotAt: number }[]> {
    const estStep = ((1 + o.pacingHeadroom) * 1000) / Math.max(number.messagesPerSecond, 1);
    const estStart = Math.max(scheduleEnd.get(number.id) ?? 0, number.nextSendAt?.getTime() ?? 0, Date.now());
    const estimate = (i: number) => estStart + i * estStep + LEASE_MARGIN_MS;
    // Until when each claim's lease is known to cover a send leaving then, its request and its
    // SENDED commit. The claim's own lease (durably committed by the claim, which took the
    // worker's clock before asking) usually covers slots a second or two ahead already (30 s
    // lease, 15 s Graph timeout): those need no extension at all, only the slot reservation.
    const bound = new Map(items.map((r) => [r.c.id, (r.c.leaseEnd ?? 0) - deliveryConfig.graphTimeoutMs - SENDED_MARGIN_MS]));
    const short = items.flatMap((r, i) => (estimate(i) > bound.get(r.c.id)! ? [{ c: r.c, slotAt: estimate(i) }] : []));
    let mine = items;
    if (short.length) {
      const leased = await leaseSlots(short, holdMs());
      for (const s of short) if (leased.has(s.c.id)) bound.set(s.c.id, s.slotAt);
      mine = items.filter((r) => leased.has(r.c.id) || !short.some((s) => s.c.id === r.c.id));
    }
    if (!mine.length || killed) return [];
    const { startAt, stepMs } = await reserveSlots(number.id, mine.length, o.pacingHeadroom, lateMs);
    scheduleEnd.set(number.id, startAt + mine.length * stepMs);
    const slotted = mine.map((r, i) => ({ r, slotAt: startAt + i * stepMs, bound: bound.get(r.c.id)! }));
    const beyond = slotted.filter((s) => s.slotAt > s.bound);
    if (!beyond.length) return slotted;
    const still = await leaseSlots(beyond.map((s) => ({ c: s.r.c, slotAt: s.slotAt })), holdMs());
    return slotted.filter((s) => s.slotAt <= s.bound || still.has(s.r.c.id));
  }

  /**
   * One number's share of a claim: one lease statement and one slot reservation for all its
   * messages (reserve), instead of a locked, flushed UPDATE per message. Each message then
   * leaves at its own slot.
   */
  async function sendGroup(items: Ready[], done: (id: number) => void) {
    if (killed) return;
    if (!running) return void (await Promise.all(items.map((r) => release(r.c))));
    const slotted = await reserve(items[0].number, items);
    await Promise.all(
      slotted.map(({ r, slotAt }) =>
        sendAt(r, slotAt)
          .catch((err) => console.error(`[worker] message ${r.c.id}`, err))
          .finally(() => done(r.c.id)),
      ),
    );
  }

  // Sends of one number that woke past their slot's late bound take fresh slots together: when
  // the event loop stalls, many wake late at once, and one reservation per number per turn of
  // the loop replaces a statement (and a wait on the number's row lock) for each of them.
  type LateSend = { ready: Ready; settle: (slotAt: number | undefined) => void; fail: (err: unknown) => void };
  const late = new Map<number, LateSend[]>();
  function reslot(ready: Ready): Promise<number | undefined> {
    return new Promise((settle, fail) => {
      const id = ready.number.id;
      let waiting = late.get(id);
      if (!waiting) {
        const batch: LateSend[] = [];
        late.set(id, (waiting = batch));
        setImmediate(() => {
          late.delete(id);
          reserve(ready.number, batch.map((w) => w.ready)).then(
            (slotted) => {
              const at = new Map(slotted.map((s) => [s.r.c.id, s.slotAt]));
              for (const w of batch) w.settle(at.get(w.ready.c.id));
            },
            (err) => batch.forEach((w) => w.fail(err)),
          );
        });
      }
      waiting.push({ ready, settle, fail });
    });
  }

  async function sendAt(ready: Ready, slotAt: number) {
    const { c, m, number, adapter, message } = ready;
    // A send may leave at most `lateMs` after its slot: a worker that wakes later (a stalled
    // event loop, a GC pause) takes a fresh slot instead, so late sends can never bunch up with
    // punctual ones. With slots (1 + h)/mps apart, any one-second window then holds at most mps
    // departures as long as lateMs ≤ h·1000 ms; half of that is used, and the other half is left
    // for jitter between leaving here and arriving at the provider. Slots reserved together are
    // consecutive and no other reservation overlaps them, so the argument is the same for a
    // batch as for single slots.
    for (;;) {
      await sleep(slotAt - Date.now(), stopping.signal);
      if (killed) return;
      if (!running) return release(c);
      if (Date.now() - slotAt <= lateMs) break;
      const fresh = await reslot(ready);
      if (fresh === undefined) return;
      slotAt = fresh;
    }
    const outcome = await adapter.sendTemplate(number, message);
    // Killed between the provider's accept and our commit: the residual at-least-once window.
    if (killed) return;
    if (!outcome.ok) return settleFailure(c, m.teamId, number.number, outcome);
    const row = await sended.add({ c, teamId: m.teamId, providerMessageId: outcome.providerMessageId }, number.number);
    if (killed) return;
    if (!row) {
      // Its lease was lost, or its status webhook came first and adopted this very wamid (status.ts).
      console.warn(`[worker] message ${c.id} was accepted (${outcome.providerMessageId}) after its claim was settled elsewhere`);
      return;
    }
    adapter.afterAccepted?.(number, outcome.providerMessageId, { report: applyStatusUpdates, stepMs: o.sandboxStepMs });
  }

  /**
   * One query for the batch's messages and one for their numbers, templates read once per
   * batch, then one slot reservation per number. Each message counts as in flight until it is
   * settled, so a paced group's tail does not hold back claims for other numbers.
   */
  async function runBatch(claims: Claim[]) {
    const open = new Set(claims.map((c) => c.id));
    const done = (id: number) => {
      if (!open.delete(id)) return;
      msgsInFlight--;
      if (o.concurrency - msgsInFlight >= refillAt) capacity.wake();
    };
    try {
      const rows = await loadMessages(claims.map((c) => c.id));
      const byId = new Map(rows.map((r) => [r.id, r]));
      const numbers = await findNumbersByIds([...new Set(rows.map((r) => r.waNumberId))]);
      // Credentials are decrypted once per number and batch, not once per message.
      const numberById = new Map(numbers.map((n) => [n.id, withSecrets(n)]));
      const lookups = batchLookups();
      const prepared = await Promise.all(
        claims.map((c) => {
          const m = byId.get(c.id);
          return prepare(c, m, m ? numberById.get(m.waNumberId) : undefined, lookups).catch((err) => {
            console.error(`[worker] message ${c.id}`, err);
            return undefined;
          });
        }),
      );
      const groups = new Map<number, Ready[]>();
      for (const [i, r] of prepared.entries()) {
        if (!r) done(claims[i].id);
        else groups.set(r.number.id, [...(groups.get(r.number.id) ?? []), r]);
      }
      await Promise.all([...groups.values()].map((items) => sendGroup(items, done).catch((err) => console.error(`[worker] number ${items[0].number.id}`, err))));
    } finally {
      for (const id of [...open]) done(id);
    }
  }

  /** Returns true when a claim came back full: more is probably due, so poll again at once. */
  async function pollOnce(): Promise<boolean> {
    let full = false;
    const freeMsgs = o.concurrency - msgsInFlight;
    if (freeMsgs >= refillAt) {
      const claimedAt = Date.now();
      const claims = (await claimMessages(freeMsgs, o.leaseMs, o.claimAheadSec, options.teamIds, o.uncertainGraceMs)).map((c) => ({ ...c, leaseEnd: claimedAt + o.leaseMs }));
      full ||= claims.length === freeMsgs;
      if (claims.length) {
        msgsInFlight += claims.length;
        track(runBatch(claims).catch((err) => console.error("[worker] batch", err)));
      }
    }
    const freeHooks = o.webhookConcurrency - hooksInFlight;
    if (freeHooks > 0) {
      const claims = await claimDeliveries(freeHooks, Math.max(o.leaseMs, o.webhookTimeoutMs * 2), options.teamIds);
      full ||= claims.length === freeHooks;
      for (const c of claims) {
        hooksInFlight++;
        track(
          deliverOne(
            c,
            { timeoutMs: o.webhookTimeoutMs, maxAttempts: o.webhookMaxAttempts, baseMs: o.backoffBaseMs, capMs: o.backoffCapMs, secretOf: targetSecret },
            () => killed,
          )
            .catch((err) => console.error(`[worker] webhook delivery ${c.id}`, err))
            .finally(() => hooksInFlight--),
        );
      }
    }
    return full;
  }

  /**
   * In-process status walks (the sandbox's) live in timers: a crash or restart stops them. Walks
   * with no step for a while are taken over here, each from the status it reached.
   */
  let nextWalkSweep = 0;
  async function resumeWalks() {
    if (Date.now() < nextWalkSweep) return;
    nextWalkSweep = Date.now() + o.walkSweepMs;
    const staleMs = 3 * o.sandboxStepMs + 2000;
    const stopped = await claimStoppedWalks(walkingProviders, 1000, staleMs, staleMs, options.teamIds);
    if (!stopped.length || killed) return;
    const numbers = new Map((await findNumbersByIds([...new Set(stopped.map((w) => w.waNumberId))])).map((n) => [n.id, withSecrets(n)]));
    for (const w of stopped) {
      const number = numbers.get(w.waNumberId);
      if (number) adapterFor(number.provider).afterAccepted?.(number, w.providerMessageId, { report: applyStatusUpdates, stepMs: o.sandboxStepMs, reached: w.status });
    }
  }

  async function loop() {
    while (running) {
      let full = false;
      await resumeWalks().catch((err) => console.error("[worker] resuming status walks failed", err));
      try {
        full = await pollOnce();
      } catch (err) {
        if (!running) break;
        console.error("[worker] poll failed", err);
      }
      // Polling costs the database a query per worker: only skip the wait when a batch came back
      // full, and when the worker is at capacity wait for room rather than a whole interval.
      if (o.concurrency - msgsInFlight < refillAt) await Promise.race([capacity.next(), sleep(o.pollMs, stopping.signal)]);
      else await sleep(full ? 10 : o.pollMs, stopping.signal);
    }
  }

  return {
    start() {
      if (running) return;
      running = true;
      loopDone = loop();
    },
    async stop() {
      running = false;
      stopping.abort();
      await loopDone;
      await Promise.allSettled([...inFlight]);
    },
    kill() {
      killed = true;
      running = false;
      stopping.abort();
    },
  };
}
