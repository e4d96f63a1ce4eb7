import type { Outcome } from "./outcome";
import { sleep } from "./pacing";
import { createSettle, logFailure, type Settle, type Writes } from "./settle";

/**
 * One kind of claimed work: a table whose due rows are claimed with a lease and a fence
 * (claim-due-repo.ts), the work done for each claimed item, and how its outcomes are written
 * (`writes`, in the kind's repo). The worker's registry of kinds is in worker.ts (sends, outgoing
 * webhook deliveries, read receipts).
 *
 * The work is either `perform`, one item at a time returning its outcome (outcome.ts), or `run`,
 * a whole claimed batch (sends: loaded, grouped and paced together) that settles each item
 * through the `settle` it is handed. Either way the loop settles (settle.ts) and counts the item
 * done once its outcome is written; an item left unsettled when `run` returns, or whose work
 * threw (logged), counts as done with nothing written: its lease runs out and it is claimed again.
 */
export type TaskKind<T extends { id: number } = { id: number }, S extends { id: number } = T, O extends Outcome = Outcome> = {
  /** Names the kind in logs and in `inHand()`. */
  name: string;
  /** Items of this kind in hand at once (0: the kind is off). */
  concurrency: number;
  /**
   * Claims only once this many are free (default 1). Sends wait for half their concurrency:
   * claiming as each single send finishes would make every claim (and its slot reservation) a
   * round trip per message again.
   */
  refillAt?: number;
  /** Claims at most this often (default: at every poll). */
  everyMs?: number;
  claim(limit: number): Promise<T[]>;
  writes: Writes<S, O>;
} & ({ perform(item: T & S): Promise<O>; run?: never } | { run(items: T[], settle: Settle<S, O>): Promise<void>; perform?: never });

/** A kind of claimed work with its types erased (the loop itself sees only ids and outcomes). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyTaskKind = TaskKind<any, any, any>;

export type ClaimLoopOptions = {
  /** Idle wait between polls. */
  pollMs: number;
  /** The kinds of work this loop claims, in the order each poll claims them. */
  tasks: AnyTaskKind[];
  /** Aborted when the worker stops: ends the loop's waits at once. */
  signal: AbortSignal;
};

/** A one-shot wake-up the loop can wait on, re-armed by each wait. */
function wakeup() {
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
 * The claim loop: polls each kind of work for due items and hands them on, keeping at most the
 * kind's `concurrency` in hand. A kind at capacity is claimed again once `refillAt` of it is free
 * (the loop wakes for that rather than sleeping a whole poll interval); a claim that came back
 * full polls again at once.
 *
 * Its state: whether it runs (or was halted: then nothing more is settled), how many items of each
 * kind are in hand, and the batches in flight (awaited by stop).
 */
export function createClaimLoop(o: ClaimLoopOptions) {
  let running = false;
  let halted = false;
  const kinds = o.tasks
    .filter((t) => t.concurrency > 0)
    .map((t) => ({
      task: t,
      settle: createSettle(t.name, t.writes, () => halted),
      inHand: 0,
      refillAt: Math.max(1, Math.min(t.refillAt ?? 1, t.concurrency)),
      nextClaimAt: 0,
    }));
  type Kind = (typeof kinds)[number];
  const inFlight = new Set<Promise<void>>();
  const capacity = wakeup();
  let loopDone: Promise<void> = Promise.resolve();
  // Polls begun so far, and who waits for one to end (nextPoll).
  let polls = 0;
  let pollWaiters: { after: number; resolve: () => void }[] = [];
  const pollEnded = (n: number) => {
    const due = pollWaiters.filter((w) => n > w.after);
    pollWaiters = pollWaiters.filter((w) => n <= w.after);
    due.forEach((w) => w.resolve());
  };
  const starved = (k: Kind) => k.task.concurrency - k.inHand < k.refillAt;

  function runBatch(k: Kind, items: { id: number }[]) {
    const open = new Set(items.map((i) => i.id));
    const done = (id: number) => {
      if (!open.delete(id)) return;
      k.inHand--;
      if (!starved(k)) capacity.wake();
    };
    k.inHand += items.length;
    // Writes the item's outcome, logs a write that failed, and counts the item done either way.
    const settle = (async (item: { id: number }, outcome: Outcome) => {
      try {
        return await k.settle(item, outcome);
      } catch (err) {
        logFailure(k.task.name, item.id, `not settled (${outcome.kind})`, err);
        return false;
      } finally {
        done(item.id);
      }
    }) as Settle<{ id: number }, Outcome>;
    const { perform } = k.task;
    const work = perform
      ? Promise.all(
          items.map((item) =>
            perform(item).then(
              (outcome) => settle(item, outcome),
              (err) => {
                logFailure(k.task.name, item.id, "failed", err);
                done(item.id);
              },
            ),
          ),
        )
      : k.task.run!(items, settle);
    const p = work
      .then(() => undefined)
      .catch((err) => logFailure(k.task.name, undefined, "batch failed", err))
      .finally(() => {
        for (const id of [...open]) done(id);
      });
    inFlight.add(p);
    p.finally(() => inFlight.delete(p)).catch(() => {});
  }

  /** One poll of every kind: returns true when a claim came back full (more is probably due). */
  async function pollOnce(): Promise<boolean> {
    let full = false;
    for (const k of kinds) {
      if (!running) break;
      const free = k.task.concurrency - k.inHand;
      if (free < k.refillAt || Date.now() < k.nextClaimAt) continue;
      k.nextClaimAt = Date.now() + (k.task.everyMs ?? 0);
      try {
        const items = await k.task.claim(free);
        // A kind claimed on its own interval waits for it, full or not.
        full ||= items.length === free && !k.task.everyMs;
        if (items.length) runBatch(k, items);
      } catch (err) {
        if (running) logFailure(k.task.name, undefined, "claim failed", err);
      }
    }
    return full;
  }

  async function loop() {
    while (running) {
      const n = ++polls;
      const full = await pollOnce();
      pollEnded(n);
      // Polling costs the database a query per kind and worker: only skip the wait when a claim
      // came back full, and when a kind is at capacity wake as soon as it has room again.
      const wait = sleep(full ? 10 : o.pollMs, o.signal);
      await (kinds.some(starved) ? Promise.race([capacity.next(), wait]) : wait);
    }
    // Stopped: no poll is to come.
    pollEnded(Infinity);
  }

  return {
    start() {
      if (running) return;
      running = true;
      loopDone = loop();
    },
    /** Ends the loop; resolves once it and everything it handed on have finished. */
    async stop() {
      running = false;
      await loopDone;
      await Promise.allSettled([...inFlight]);
    },
    /** Ends the loop without waiting and settles nothing more (a crash simulation). */
    halt() {
      running = false;
      halted = true;
    },
    /**
     * Resolves once a poll that began after this call has ended (every kind claimed once and its
     * items handed on), or the loop has stopped: what a check that nothing more is claimed waits
     * for, instead of a guessed delay.
     */
    nextPoll(): Promise<void> {
      if (!running) return Promise.resolve();
      return new Promise<void>((resolve) => pollWaiters.push({ after: polls, resolve }));
    },
    /** Items of each kind in hand right now, by kind name. */
    inHand: (): Record<string, number> => Object.fromEntries(kinds.map((k) => [k.task.name, k.inHand])),
  };
}
export type ClaimLoop = ReturnType<typeof createClaimLoop>;
