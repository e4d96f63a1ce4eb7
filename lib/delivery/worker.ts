import { setMaxListeners } from "node:events";
import { withSecrets } from "@/lib/channels/credentials";
import type { ChannelAdapter, ChannelNumber } from "@/lib/channels/types";
import { claimDeliveries, targetSecret, type DeliveryClaim } from "@/lib/outgoing-webhooks/deliveries-repo";
import { deliverOne } from "@/lib/outgoing-webhooks/deliver";
import { startChores, workerChores } from "@/lib/chores/schedule";
import { adapterFor } from "./channels";
import { createClaimLoop, type TaskKind } from "./claim-loop";
import { deliveryConfig } from "./config";
import { batchLookups, buildOutbound, isFreeForm, type Lookups, type Outbound } from "./outbound";
import { createPacer } from "./pacing";
import { RECEIPT_BATCH, sendReadReceipts } from "./read-receipts";
import { claimReadReceipts, type ReceiptClaim } from "./read-receipts-repo";
import { claimMessages, findNumbersByIds, loadMessages, release, type Claim, type MessageRow } from "./repo";
import { createSettler } from "./settle";
import { broadcastMaySend, parkClaim } from "@/lib/broadcasts/lifecycle";

export type WorkerOptions = {
  /** Idle wait between polls (WORKER_POLL_MS, default 1000). */
  pollMs?: number;
  /** Lease of a claim before the send's own lease extension (default 30 s). */
  leaseMs?: number;
  /** Messages and outgoing webhook deliveries handled at once by this worker (default 256 / 8). */
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
  /** How often queued read receipts are looked for (default 1 s). */
  receiptPollMs?: number;
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

/**
 * The delivery worker, read top to bottom:
 * - what a claimed message goes through between its claim and its settling (`prepare`,
 *   `sendGroup`, `sendAt`, `runBatch`): paced per number through a shared slot (pacing.ts), sent
 *   through the number's channel adapter, moved with a fenced transition (settle.ts, repo.ts);
 * - the registry of claimed work (`tasks`): messages, outgoing webhook deliveries and read
 *   receipts, each a table claimed with a lease and a fence, polled by one loop (claim-loop.ts);
 * - its periodic chores (`workerChores` in lib/chores/schedule.ts, beside the process-wide ones).
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
    receiptPollMs: options.receiptPollMs ?? 1000,
    webhookTimeoutMs: options.webhookTimeoutMs ?? 10_000,
    webhookMaxAttempts: options.webhookMaxAttempts ?? 10,
  };
  // The worker's life: running, stopping (graceful), or killed (a crash: nothing more is written).
  let running = false;
  let killed = false;
  const state = () => (killed ? "killed" : running ? "running" : "stopping");
  const stopping = new AbortController();
  // Every waiting send listens for the stop: far more than the default ten listeners.
  setMaxListeners(0, stopping.signal);

  const SENDED_MARGIN_MS = 5000;
  const settler = createSettler({ ...o, killed: () => killed });
  const pacer = createPacer({
    pacingHeadroom: o.pacingHeadroom,
    // The lease must outlive the slot wait and the request, or another worker could send it too.
    // After the request, the SENDED commit may wait behind the batch being committed
    // (sended-batch.ts): at least SENDED_MARGIN_MS for it, whatever the claim lease.
    holdMs: () => deliveryConfig.graphTimeoutMs + Math.max(o.leaseMs, SENDED_MARGIN_MS),
    afterSlotMs: () => deliveryConfig.graphTimeoutMs + SENDED_MARGIN_MS,
    killed: () => killed,
  });

  type Ready = { c: Claim; m: MessageRow; number: ChannelNumber; adapter: ChannelAdapter; message: Outbound };

  /** Checks a claimed message and builds its send; undefined when it was settled (or skipped) here. */
  async function prepare(
    c: Claim,
    m: MessageRow | undefined,
    number: ChannelNumber | undefined,
    lookups: Lookups,
  ): Promise<Ready | undefined> {
    if (!m || m.status !== "QUEUED" || m.attempts !== c.attempts) return;
    if (!number) return void (await settler.fail(c, m.teamId, "", { code: null, title: "The sending number no longer exists" }));
    if (c.attempts > o.maxAttempts) {
      // Claimed again after crashes ate every attempt: stop here rather than risk yet another send.
      return void (await settler.fail(
        c,
        m.teamId,
        number.number,
        m.error ?? { code: null, title: `Gave up after ${o.maxAttempts} attempts` },
      ));
    }
    const adapter = adapterFor(number.provider);
    const built = await buildOutbound(m, number, adapter, lookups);
    if (!built.ok) return void (await settler.failure(c, m.teamId, number.number, built));
    return { c, m, number, adapter, message: built.message };
  }

  /**
   * One number's share of a claim: one lease statement and one slot reservation for all its
   * messages (pacer.reserve), instead of a locked, flushed UPDATE per message. Each message then
   * leaves at its own slot.
   */
  async function sendGroup(items: Ready[], done: (id: number) => void) {
    if (killed) return;
    if (!running) return void (await Promise.all(items.map((r) => release(r.c))));
    const slotted = await pacer.reserve(items);
    await Promise.all(
      slotted.map(({ r, slotAt }) =>
        sendAt(r, slotAt)
          .catch((err) => console.error(`[worker] message ${r.c.id}`, err))
          .finally(() => done(r.c.id)),
      ),
    );
  }

  async function sendAt(ready: Ready, slotAt: number) {
    const { c, m, number, adapter, message } = ready;
    const turn = await pacer.waitTurn(ready, slotAt, stopping.signal, state);
    if (turn === "stopping") return release(c);
    if (turn !== "send") return;
    // A broadcast paused or cancelled since the claim: the message goes back parked, unsent. Checked
    // at the last moment (after the slot wait), so only a send already leaving can outrun the change.
    if (m.broadcastId != null && !(await broadcastMaySend(c.id, c.attempts))) return parkClaim(c.id, c.attempts);
    const outcome = isFreeForm(message) ? await adapter.sendMessage(number, message) : await adapter.sendTemplate(number, message);
    // Killed between the provider's accept and our commit: the send's status webhook will tell
    // (status.ts adopts its wamid), and the claim waits the uncertain grace for it.
    if (killed) return;
    if (!outcome.ok) return settler.failure(c, m.teamId, number.number, outcome);
    await settler.accepted(c, m.teamId, number, adapter, outcome.providerMessageId);
  }

  /**
   * One query for the batch's messages and one for their numbers, templates read once per
   * batch, then one slot reservation per number. Each message counts as in flight until it is
   * settled, so a paced group's tail does not hold back claims for other numbers.
   */
  async function runBatch(claims: Claim[], done: (id: number) => void) {
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
    await Promise.all(
      [...groups.values()].map((items) =>
        sendGroup(items, done).catch((err) => console.error(`[worker] number ${items[0].number.id}`, err)),
      ),
    );
  }

  // The registry of claimed work: each kind is a table whose due rows this loop claims with a
  // lease and a fence (claim-due.ts), and what to do with a claimed batch.
  const receiptOptions = { maxAttempts: o.maxAttempts, backoffBaseMs: o.backoffBaseMs, backoffCapMs: o.backoffCapMs, killed: () => killed };
  let startedAt = Date.now();
  const tasks: TaskKind[] = [
    task<Claim>({
      name: "messages",
      concurrency: o.concurrency,
      refillAt: Math.floor(o.concurrency / 2),
      claim: async (limit) => {
        const claimedAt = Date.now();
        // Sends whose outcome a crash left unknown are claimed only once this worker has run for
        // the grace itself: their status webhooks (which prove a send and adopt its wamid) could not
        // land while the deployment was down, and Meta is retrying them only now.
        const takeUncertain = Date.now() - startedAt >= o.uncertainGraceMs;
        const claims = await claimMessages(limit, o.leaseMs, o.claimAheadSec, options.teamIds, o.uncertainGraceMs, takeUncertain);
        return claims.map((c) => ({ ...c, leaseEnd: claimedAt + o.leaseMs }));
      },
      run: runBatch,
    }),
    // Outgoing webhook deliveries (bots and campaigns), one request each.
    task<DeliveryClaim>({
      name: "hooks",
      concurrency: o.webhookConcurrency,
      claim: (limit) => claimDeliveries(limit, Math.max(o.leaseMs, o.webhookTimeoutMs * 2), options.teamIds),
      run: (hooks, done) =>
        eachDone(hooks, done, (h) =>
          deliverOne(
            h,
            {
              timeoutMs: o.webhookTimeoutMs,
              maxAttempts: o.webhookMaxAttempts,
              baseMs: o.backoffBaseMs,
              capMs: o.backoffCapMs,
              secretOf: targetSecret,
            },
            () => killed,
          ),
        ),
    }),
    // Read receipts (POST /conversations/{id}/read on cloud_api numbers): one batch at a time, at
    // most every receiptPollMs; they are small and rare next to sends.
    task<ReceiptClaim>({
      name: "receipts",
      concurrency: RECEIPT_BATCH,
      refillAt: RECEIPT_BATCH,
      everyMs: o.receiptPollMs,
      claim: (limit) => claimReadReceipts(limit, deliveryConfig.graphTimeoutMs + o.leaseMs, options.teamIds),
      run: (claims, done) => sendReadReceipts(claims, receiptOptions, done),
    }),
  ];
  const loop = createClaimLoop({ pollMs: o.pollMs, tasks, signal: stopping.signal });
  const chores = workerChores({ teamIds: options.teamIds, walkSweepMs: o.walkSweepMs, resumeWalks: settler.resumeWalks });
  let stopChores: (() => Promise<void>) | undefined;

  return {
    start() {
      if (running) return;
      running = true;
      startedAt = Date.now();
      loop.start();
      stopChores = startChores(chores);
    },
    async stop() {
      running = false;
      stopping.abort();
      await Promise.all([loop.stop(), stopChores?.()]);
    },
    kill() {
      killed = true;
      running = false;
      loop.halt();
      void stopChores?.();
      stopping.abort();
    },
  };
}

/** A kind of claimed work, typed by its claim (the loop itself sees only ids). */
function task<T extends { id: number }>(k: TaskKind<T>): TaskKind {
  return k;
}

/** Runs each item on its own, calling `done` as each one ends, whatever its outcome. */
async function eachDone<T extends { id: number }>(items: T[], done: (id: number) => void, run: (item: T) => Promise<unknown>) {
  await Promise.all(
    items.map((item) =>
      run(item)
        .catch((err) => console.error(`[worker] item ${item.id}`, err))
        .finally(() => done(item.id)),
    ),
  );
}
