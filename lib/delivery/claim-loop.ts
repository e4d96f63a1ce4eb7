import type { Claim } from "./repo";
import { sleep } from "./pacing";

export type ClaimLoopOptions<H> = {
  /** Idle wait between polls. */
  pollMs: number;
  /** Messages handled at once; claims are topped up once half of them are free. */
  concurrency: number;
  /** Webhook events (bot and campaign deliveries) handled at once. */
  webhookConcurrency: number;
  claimMessages(limit: number): Promise<Claim[]>;
  /** Runs a claimed batch; `done(id)` as each message is settled (any left over count as done when it returns). */
  runMessages(claims: Claim[], done: (id: number) => void): Promise<void>;
  claimHooks(limit: number): Promise<H[]>;
  runHook(hook: H): Promise<void>;
  /** Housekeeping before each poll; a failure is logged and never stops the loop. */
  beforePoll?(): Promise<void>;
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
 * The claim loop: polls for due messages and webhook events and hands them on, keeping at most
 * `concurrency` messages and `webhookConcurrency` events in hand. At capacity it waits for half
 * the concurrency to come free, then claims that many at once: claiming as each single send
 * finishes would make every claim (and its slot reservation) a round trip per message again;
 * sleeping a whole poll interval would idle. A claim that came back full polls again at once.
 *
 * Its state: whether it runs, how many messages and events are in hand, and the batches and
 * deliveries in flight (awaited by stop).
 */
export function createClaimLoop<H>(o: ClaimLoopOptions<H>) {
  let running = false;
  let msgsInFlight = 0;
  let hooksInFlight = 0;
  const inFlight = new Set<Promise<void>>();
  const refillAt = Math.max(1, Math.floor(o.concurrency / 2));
  const capacity = wakeup();
  let loopDone: Promise<void> = Promise.resolve();

  const track = (p: Promise<void>) => {
    inFlight.add(p);
    p.finally(() => inFlight.delete(p)).catch(() => {});
  };

  function runBatch(claims: Claim[]) {
    const open = new Set(claims.map((c) => c.id));
    const done = (id: number) => {
      if (!open.delete(id)) return;
      msgsInFlight--;
      if (o.concurrency - msgsInFlight >= refillAt) capacity.wake();
    };
    msgsInFlight += claims.length;
    track(
      o
        .runMessages(claims, done)
        .catch((err) => console.error("[worker] batch", err))
        .finally(() => {
          for (const id of [...open]) done(id);
        }),
    );
  }

  /** One poll: returns true when a claim came back full (more is probably due). */
  async function pollOnce(): Promise<boolean> {
    let full = false;
    const freeMsgs = o.concurrency - msgsInFlight;
    if (freeMsgs >= refillAt) {
      const claims = await o.claimMessages(freeMsgs);
      full ||= claims.length === freeMsgs;
      if (claims.length) runBatch(claims);
    }
    const freeHooks = o.webhookConcurrency - hooksInFlight;
    if (freeHooks > 0) {
      const hooks = await o.claimHooks(freeHooks);
      full ||= hooks.length === freeHooks;
      for (const h of hooks) {
        hooksInFlight++;
        track(
          o
            .runHook(h)
            .catch((err) => console.error("[worker] webhook delivery", err))
            .finally(() => hooksInFlight--),
        );
      }
    }
    return full;
  }

  async function loop() {
    while (running) {
      await o.beforePoll?.().catch((err) => console.error("[worker] housekeeping failed", err));
      let full = false;
      try {
        full = await pollOnce();
      } catch (err) {
        if (!running) break;
        console.error("[worker] poll failed", err);
      }
      // Polling costs the database a query per worker: only skip the wait when a batch came back
      // full, and when the worker is at capacity wait for room rather than a whole interval.
      if (o.concurrency - msgsInFlight < refillAt) await Promise.race([capacity.next(), sleep(o.pollMs, o.signal)]);
      else await sleep(full ? 10 : o.pollMs, o.signal);
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
    /** Messages and events in hand right now. */
    inHand: () => ({ messages: msgsInFlight, hooks: hooksInFlight }),
  };
}
export type ClaimLoop = ReturnType<typeof createClaimLoop>;
