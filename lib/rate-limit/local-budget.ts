/**
 * The API budget counted in each process and reconciled with the shared count (docs/auth-limits.md,
 * "API rate limit"). Each process keeps, per key and window, the last shared total it read and the
 * requests it admitted since (`pending`). One statement per key adds `pending` to the shared row
 * and reads the new total back; it runs at most once per `intervalMs` (250 ms) per key and process,
 * so a read served by the replica writes nothing on the primary by itself.
 *
 * Why it stays within a few percent of the limit across processes: a process admits on its own
 * only while (a) its view (last shared total + its own unflushed admissions) is under the limit,
 * and (b) its unflushed admissions are fewer than its share, `floor(limit × share)` (1 %). A
 * request past the share waits for the key's next statement (at most 250 ms away), which counts it
 * in the shared row and admits it only if its place in the shared count is within the limit. So
 * every process hides at most `share` admissions from the others at any moment; once the shared
 * total reaches the limit, each process learns it at its next statement, having admitted at most
 * its share meanwhile. The total admitted is therefore at most `limit + processes × share`
 * (2 % with two processes, 5 % with five), however the burst is timed. It is never below the
 * limit when the demand exceeds it: a request is refused only when the count it saw already held
 * `limit` admitted requests (a shared total never overstates the admitted ones below the limit).
 * Limits under 100 per window give a share of 0: every request is decided by the shared count,
 * exactly, batched per 250 ms.
 */

export type LimiterClock = {
  now(): number;
  /** Runs `fn` after `ms`; returns a cancel. */
  setTimer(fn: () => void, ms: number): () => void;
};

/** Adds `delta` to the shared count of `key`'s window and returns the new total. */
export type SharedCount = (key: string, windowStart: Date, delta: number) => Promise<number>;

export type Decision = { ok: boolean; remaining: number };

export type LocalBudgetOptions = {
  add: SharedCount;
  clock?: LimiterClock;
  /** The least time between two statements of one key in this process. */
  intervalMs?: number;
  /** The fraction of the limit a process may admit without the shared count. */
  share?: number;
  /** Called after each statement (the sweep of past windows hangs on it). */
  afterStatement?: (windowMs: number) => void;
};

export const FLUSH_INTERVAL_MS = 250;
export const LOCAL_SHARE = 0.01;

export const realClock: LimiterClock = {
  now: () => Date.now(),
  setTimer(fn, ms) {
    const t = setTimeout(fn, ms);
    // The flush of a closing process is `flushAll`'s work; a timer must not keep it alive.
    t.unref?.();
    return () => clearTimeout(t);
  },
};

type Waiter = { resolve: (d: Decision) => void; reject: (err: unknown) => void };

type Entry = {
  id: string;
  key: string;
  windowStart: Date;
  windowMs: number;
  limit: number;
  /** The shared total as of this process's last statement (includes what it sent). */
  shared: number;
  /** Admitted here, not yet sent. */
  pending: number;
  /** Sent in the statement in flight. */
  inflight: number;
  waiters: Waiter[];
  /** When this key's last statement was sent; -Infinity before the first. */
  lastSentAt: number;
  /** When the oldest unsent admission was made. */
  pendingSince: number;
  running: Promise<void> | null;
  cancelTimer: (() => void) | null;
  /** When the planned statement goes (with `cancelTimer`). */
  timerAt: number;
  ended: boolean;
};

export class LocalBudget {
  private readonly entries = new Map<string, Entry>();
  private readonly add: SharedCount;
  private readonly clock: LimiterClock;
  private readonly intervalMs: number;
  private readonly share: number;
  private readonly afterStatement?: (windowMs: number) => void;

  constructor(opts: LocalBudgetOptions) {
    this.add = opts.add;
    this.clock = opts.clock ?? realClock;
    this.intervalMs = opts.intervalMs ?? FLUSH_INTERVAL_MS;
    this.share = opts.share ?? LOCAL_SHARE;
    this.afterStatement = opts.afterStatement;
  }

  /** Takes one request of `key`'s budget in the window starting at `windowStart`. */
  take(key: string, windowStart: number, windowMs: number, limit: number): Decision | Promise<Decision> {
    const e = this.entry(key, windowStart, windowMs, limit);
    const view = e.shared + e.inflight + e.pending;
    // The view never overstates the shared count: at the limit, the answer is certain.
    if (view >= limit) return { ok: false, remaining: 0 };
    if (e.inflight + e.pending < Math.floor(limit * this.share) && e.waiters.length === 0) {
      if (e.pending === 0) e.pendingSince = this.clock.now();
      e.pending++;
      this.schedule(e);
      return { ok: true, remaining: limit - view - 1 };
    }
    return new Promise<Decision>((resolve, reject) => {
      e.waiters.push({ resolve, reject });
      this.schedule(e);
    });
  }

  /**
   * Sends every key's unsent admissions now, ignoring the interval (shutdown), and waits for them.
   * A few rounds at most: a statement that fails keeps its count for a later one, which a closing
   * process will not see.
   */
  async flushAll(): Promise<void> {
    for (let round = 0; round < 3; round++) {
      const busy = [...this.entries.values()].filter((e) => e.running || e.pending > 0 || e.waiters.length > 0);
      if (busy.length === 0) return;
      await Promise.allSettled(
        busy.map((e) => {
          if (e.running) return e.running;
          e.cancelTimer?.();
          e.cancelTimer = null;
          return this.send(e);
        }),
      );
    }
  }

  /** Requests counted here and not yet in the shared count (admitted or waiting), all keys. */
  get unsent(): number {
    let n = 0;
    for (const e of this.entries.values()) n += e.pending + e.inflight + e.waiters.length;
    return n;
  }

  /** Settles when the statements in flight now have answered. */
  async statementsInFlight(): Promise<void> {
    await Promise.allSettled([...this.entries.values()].map((e) => e.running));
  }

  /** Keys (per window) this process holds; for tests. */
  get size(): number {
    return this.entries.size;
  }

  private entry(key: string, windowStart: number, windowMs: number, limit: number): Entry {
    const id = `${windowStart}\u0000${key}`;
    let e = this.entries.get(id);
    if (e) {
      e.limit = limit;
      return e;
    }
    e = {
      id,
      key,
      windowStart: new Date(windowStart),
      windowMs,
      limit,
      shared: 0,
      pending: 0,
      inflight: 0,
      waiters: [],
      lastSentAt: -Infinity,
      pendingSince: 0,
      running: null,
      cancelTimer: null,
      timerAt: 0,
      ended: false,
    };
    this.entries.set(id, e);
    // Forgotten once its window is over and nothing of it is left to send.
    const created = e;
    this.clock.setTimer(
      () => {
        created.ended = true;
        this.forgetIfDone(created);
      },
      Math.max(0, windowStart + windowMs - this.clock.now()),
    );
    return e;
  }

  private forgetIfDone(e: Entry) {
    if (e.ended && !e.running && e.pending === 0 && e.waiters.length === 0) this.entries.delete(e.id);
  }

  /**
   * Plans the key's next statement: waiting requests go at the first moment the interval allows,
   * admissions already made 250 ms after the first of them (so N requests in a span D cost at
   * most ceil(D / 250 ms) statements, however many N is).
   */
  private schedule(e: Entry) {
    if (e.running) return;
    if (e.pending === 0 && e.waiters.length === 0) return;
    const now = this.clock.now();
    const at =
      e.waiters.length > 0 ? Math.max(now, e.lastSentAt + this.intervalMs) : Math.max(e.lastSentAt, e.pendingSince) + this.intervalMs;
    // A request that waits may bring the planned flush forward, never push it back.
    if (e.cancelTimer) {
      if (e.timerAt <= at) return;
      e.cancelTimer();
    }
    e.timerAt = at;
    e.cancelTimer = this.clock.setTimer(
      () => {
        e.cancelTimer = null;
        void this.send(e);
      },
      Math.max(0, at - now),
    );
  }

  private send(e: Entry): Promise<void> {
    const inflight = e.pending;
    const batch = e.waiters.splice(0);
    e.pending = 0;
    e.inflight = inflight;
    e.lastSentAt = this.clock.now();
    const run = (async () => {
      try {
        // Waiting requests are counted whatever the answer (as every request was before): their
        // places in the shared count decide which are admitted, with no second statement.
        const total = await this.add(e.key, e.windowStart, inflight + batch.length);
        const before = total - inflight - batch.length;
        e.shared = Math.max(e.shared, total);
        batch.forEach((w, i) => {
          const place = before + inflight + i + 1;
          w.resolve({ ok: place <= e.limit, remaining: Math.max(0, e.limit - place) });
        });
      } catch (err) {
        // The admissions are kept for the next statement; the waiting requests fail as one
        // request's failing statement did before (a 500).
        e.pending += inflight;
        for (const w of batch) w.reject(err);
      } finally {
        e.inflight = 0;
        e.running = null;
        this.afterStatement?.(e.windowMs);
        this.schedule(e);
        this.forgetIfDone(e);
      }
    })();
    e.running = run;
    return run;
  }
}

// One counter per process. On globalThis: Next bundles the routes and instrumentation.node.ts
// (whose shutdown flushes it) apart, and both must reach the same pending counts.
const g = globalThis as unknown as { __waRateLimiter?: LocalBudget };

/** This process's counter, made by `make` on first use. */
export function processBudget(make: () => LocalBudget): LocalBudget {
  return (g.__waRateLimiter ??= make());
}

/** Sends this process's pending counts now (shutdown: lib/shutdown/graceful.ts). */
export async function flushRateLimits(): Promise<void> {
  await g.__waRateLimiter?.flushAll();
}
