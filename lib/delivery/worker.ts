import { setMaxListeners } from "node:events";
import { getDb } from "@/db/client";
import { claimDeliveries, deliveryWrites, type DeliveryClaim, type DeliveryOutcome } from "@/lib/outgoing-webhooks/deliveries-repo";
import { deliverOne } from "@/lib/outgoing-webhooks/deliver";
import { startChores, workerChores } from "@/lib/chores/schedule";
import { createClaimLoop, type AnyTaskKind, type TaskKind } from "./claim-loop";
import { deliveryConfig } from "./config";
import { createPacer } from "./pacing";
import { receiptTask } from "./read-receipts";
import { sendTask } from "./send-task";
import { resumeWalks } from "./walks";

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
  /** Resolves once the claim loop's next whole poll has ended (or the worker stopped). */
  nextPoll(): Promise<void>;
};

/**
 * The delivery worker, read top to bottom: its options; the registry of claimed work (`tasks`):
 * sends (send-task.ts, which tells one message's life step by step), outgoing webhook deliveries
 * and read receipts, each a table claimed with a lease and a fence and polled by one loop
 * (claim-loop.ts), whose work returns one outcome per item (outcome.ts) that one settle path
 * writes through the kind's `writes` (settle.ts); and its periodic chores (`workerChores` in
 * lib/chores/schedule.ts, beside the process-wide ones).
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
  const pacer = createPacer({
    pacingHeadroom: o.pacingHeadroom,
    // The lease must outlive the slot wait and the request, or another worker could send it too.
    // After the request, the SENDED commit may wait behind the group being committed
    // (group-commit.ts): at least SENDED_MARGIN_MS for it, whatever the claim lease.
    holdMs: () => deliveryConfig.graphTimeoutMs + Math.max(o.leaseMs, SENDED_MARGIN_MS),
    afterSlotMs: () => deliveryConfig.graphTimeoutMs + SENDED_MARGIN_MS,
    killed: () => killed,
  });

  // The registry of claimed work: each kind is a table whose due rows this loop claims with a
  // lease and a fence (claim-due-repo.ts), the work done for each claimed item, and how each outcome
  // is written.
  let startedAt = Date.now();
  const policy = { maxAttempts: o.maxAttempts, baseMs: o.backoffBaseMs, capMs: o.backoffCapMs };
  const tasks: AnyTaskKind[] = [
    sendTask({ ...o, teamIds: options.teamIds, pacer, stopping: stopping.signal, state, startedAt: () => startedAt }),
    // Outgoing webhook deliveries (bots and campaigns), one request each.
    {
      name: "hooks",
      concurrency: o.webhookConcurrency,
      claim: async (limit) =>
        claimDeliveries(await getDb(), { limit, leaseMs: Math.max(o.leaseMs, o.webhookTimeoutMs * 2), teamIds: options.teamIds }),
      perform: (h) =>
        deliverOne(h, { timeoutMs: o.webhookTimeoutMs, maxAttempts: o.webhookMaxAttempts, baseMs: o.backoffBaseMs, capMs: o.backoffCapMs }),
      writes: deliveryWrites,
    } satisfies TaskKind<DeliveryClaim, DeliveryClaim, DeliveryOutcome>,
    // Read receipts (POST /conversations/{id}/read on cloud_api numbers): one batch at a time, at
    // most every receiptPollMs; they are small and rare next to sends.
    receiptTask({ ...policy, leaseMs: deliveryConfig.graphTimeoutMs + o.leaseMs, everyMs: o.receiptPollMs, teamIds: options.teamIds }),
  ];
  const loop = createClaimLoop({ pollMs: o.pollMs, tasks, signal: stopping.signal });
  const chores = workerChores({
    teamIds: options.teamIds,
    walkSweepMs: o.walkSweepMs,
    resumeWalks: (teamIds) => resumeWalks({ sandboxStepMs: o.sandboxStepMs, killed: () => killed }, teamIds),
  });
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
    nextPoll: () => loop.nextPoll(),
  };
}
