import { sleep } from "./pacing";

/**
 * One kind of claimed work: a table whose due rows are claimed with a lease and a fence
 * (claim-due.ts) and handed to `run`. The worker's registry of kinds is in worker.ts (sends,
 * outgoing webhook deliveries, read receipts).
 */
export type TaskKind<T extends { id: number } = { id: number }> = {
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
  /** Runs claimed items; `done(id)` as each is settled (any left over count as done when it returns). */
  run(items: T[], done: (id: number) => void): Promise<void>;
};

export type ClaimLoopOptions = {
  /** Idle wait between polls. */
  pollMs: number;
  /** The kinds of work this loop claims, in the order each poll claims them. */
  tasks: TaskKind[];
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
 * Its state: whether it runs, how many items of each kind are in hand, and the batches in flight
 * (awaited by stop).
 */
export function createClaimLoop(o: ClaimLoopOptions) {
  let running = false;
  const kinds = o.tasks
    .filter((t) => t.concurrency > 0)
    .map((t) => ({ task: t, inHand: 0, refillAt: Math.max(1, Math.min(t.refillAt ?? 1, t.concurrency)), nextClaimAt: 0 }));
  type Kind = (typeof kinds)[number];
  const inFlight = new Set<Promise<void>>();
  const capacity = wakeup();
  let loopDone: Promise<void> = Promise.resolve();
  const starved = (k: Kind) => k.task.concurrency - k.inHand < k.refillAt;

  function runBatch(k: Kind, items: { id: number }[]) {
    const open = new Set(items.map((i) => i.id));
    const done = (id: number) => {
      if (!open.delete(id)) return;
      k.inHand--;
      if (!starved(k)) capacity.wake();
    };
    k.inHand += items.length;
    const p = k.task
      .run(items, done)
      .catch((err) => console.error(`[worker] ${k.task.name}`, err))
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
        if (running) console.error(`[worker] claiming ${k.task.name} failed`, err);
      }
    }
    return full;
  }

  async function loop() {
    while (running) {
      const full = await pollOnce();
      // Polling costs the database a query per kind and worker: only skip the wait when a claim
      // came back full, and when a kind is at capacity wake as soon as it has room again.
      const wait = sleep(full ? 10 : o.pollMs, o.signal);
      await (kinds.some(starved) ? Promise.race([capacity.next(), wait]) : wait);
    }
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
    /** Ends the loop without waiting (a crash simulation). */
    halt() {
      running = false;
    },
    /** Items of each kind in hand right now, by kind name. */
    inHand: (): Record<string, number> => Object.fromEntries(kinds.map((k) => [k.task.name, k.inHand])),
  };
}
export type ClaimLoop = ReturnType<typeof createClaimLoop>;
