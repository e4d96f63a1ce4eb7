import type { LimiterClock } from "@/lib/rate-limit/local-budget";

type Timer = { at: number; seq: number; fn: () => void };

/**
 * Virtual time for the rate limiter (lib/rate-limit/local-budget.ts): its timers run only when a
 * test moves the clock, so a test decides when each statement may go and counts them against the
 * time that passed, with no real waiting.
 */
export class ManualClock implements LimiterClock {
  private timers: Timer[] = [];
  private seq = 0;
  private listeners: Array<() => void> = [];

  constructor(public t: number) {}

  now = () => this.t;

  setTimer = (fn: () => void, ms: number) => {
    const timer = { at: this.t + Math.max(0, ms), seq: this.seq++, fn };
    this.timers.push(timer);
    for (const l of this.listeners.splice(0)) l();
    return () => {
      this.timers = this.timers.filter((x) => x !== timer);
    };
  };

  /** The earliest timer due by `until`, if any. */
  private next(until: number): Timer | undefined {
    let best: Timer | undefined;
    for (const x of this.timers) if (x.at <= until && (!best || x.at < best.at || (x.at === best.at && x.seq < best.seq))) best = x;
    return best;
  }

  /** Moves time forward to `t`, running the timers due on the way, in order. */
  advanceTo(t: number) {
    for (let x = this.next(t); x; x = this.next(t)) {
      this.timers = this.timers.filter((y) => y !== x);
      this.t = Math.max(this.t, x.at);
      x.fn();
    }
    this.t = Math.max(this.t, t);
  }

  advance(ms: number) {
    this.advanceTo(this.t + ms);
  }

  /**
   * Awaits `p`, moving time to each timer due within `horizonMs` whenever one is planned (a
   * statement the limiter holds back for its interval); otherwise waits for `p` or a new timer.
   */
  async settle<T>(p: Promise<T>, horizonMs = 250): Promise<T> {
    let done = false;
    const finished = p.then(
      () => (done = true),
      () => (done = true),
    );
    while (!done) {
      const x = this.next(this.t + horizonMs);
      if (x) {
        this.advanceTo(x.at);
        continue;
      }
      await Promise.race([finished, new Promise<void>((r) => this.listeners.push(r))]);
    }
    return p;
  }
}
