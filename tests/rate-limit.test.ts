import { afterAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import type { Db } from "@/db/client";
import { getDb } from "@/db/client";
import { LocalBudget } from "@/lib/rate-limit/local-budget";
import {
  checkRateLimit as checkWith,
  rateLimitError,
  rateLimitHeaders,
  rateLimitKey,
  rateLimitPerMinute,
  sharedCountOn,
  tooManyRequestsMessage,
  withRateLimitHeaders,
} from "@/lib/rate-limit/service";
import { toErrorResponse } from "@/lib/http/respond";
import * as schema from "@/db/schema";
import { ManualClock } from "./helpers/manual-clock";

const MINUTE = 60_000;
// An instant 15.5 s into a minute, so reset times are exact; in the near future, because the
// limiter's sweep deletes windows that ended more than two minutes ago by the real clock.
const T = (Math.floor(Date.now() / MINUTE) + 2) * MINUTE + 15_500;
const newKey = () => `test:${randomUUID()}`;

/**
 * A second "replica": on Postgres its own connection pool to the same server; PGlite is one
 * process by design, so there the second client is the same embedded database.
 */
const closers: Array<() => Promise<void>> = [];
async function secondReplica(): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (!url) return getDb();
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const client = postgres(url, { max: 4, onnotice: () => {} });
  closers.push(() => client.end({ timeout: 5 }));
  return drizzle(client, { schema }) as unknown as Db;
}
afterAll(async () => {
  for (const close of closers) await close();
});

/**
 * This process's limiter on a clock the test moves: a request that must wait for its key's next
 * statement (budgets under 100 are decided by the shared count, batched per 250 ms) is settled by
 * moving the clock to that statement, never by waiting.
 */
const clock = new ManualClock(T);
const here = new LocalBudget({ add: sharedCountOn(getDb), clock });
type Opts = NonNullable<Parameters<typeof checkWith>[1]>;
const checkRateLimit = (key: string, opts: Opts) => clock.settle(checkWith(key, { limiter: here, ...opts }));

describe("checkRateLimit", () => {
  it("counts down the budget and refuses past the limit with the time to the next window", async () => {
    const key = newKey();
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await checkRateLimit(key, { limit: 3, now: T }));
    expect(results.map((r) => [r.ok, r.remaining])).toEqual([
      [true, 2],
      [true, 1],
      [true, 0],
      [false, 0],
    ]);
    expect(results.every((r) => r.limit === 3 && r.resetSeconds === 45)).toBe(true);
  });

  it("keeps one budget per key", async () => {
    const a = newKey();
    const b = newKey();
    await checkRateLimit(a, { limit: 1, now: T });
    expect((await checkRateLimit(a, { limit: 1, now: T })).ok).toBe(false);
    expect(await checkRateLimit(b, { limit: 1, now: T })).toMatchObject({ ok: true, remaining: 0 });
  });

  it("starts a full budget when the window rolls over", async () => {
    const key = newKey();
    const lastMoment = Math.floor(T / MINUTE) * MINUTE + MINUTE - 300;
    await checkRateLimit(key, { limit: 2, now: lastMoment });
    await checkRateLimit(key, { limit: 2, now: lastMoment });
    const refused = await checkRateLimit(key, { limit: 2, now: lastMoment });
    expect(refused).toEqual({ ok: false, limit: 2, remaining: 0, resetSeconds: 1 });
    const next = await checkRateLimit(key, { limit: 2, now: lastMoment + 400 });
    expect(next).toEqual({ ok: true, limit: 2, remaining: 1, resetSeconds: 60 });
  });

  it("honours other window lengths", async () => {
    const key = newKey();
    const second = Math.floor(T / 1000) * 1000;
    expect((await checkRateLimit(key, { limit: 1, windowSeconds: 1, now: second + 100 })).ok).toBe(true);
    expect((await checkRateLimit(key, { limit: 1, windowSeconds: 1, now: second + 900 })).ok).toBe(false);
    expect((await checkRateLimit(key, { limit: 1, windowSeconds: 1, now: second + 1000 })).ok).toBe(true);
  });

  it("shares one budget under 100 between two replicas, exactly, under concurrent requests", async () => {
    const key = newKey();
    const there = new LocalBudget({ add: sharedCountOn(await secondReplica()), clock });
    const calls = Array.from({ length: 40 }, (_, i) => checkWith(key, { limit: 25, now: T, limiter: i % 2 ? there : here }));
    const results = await clock.settle(Promise.all(calls));
    expect(results.filter((r) => r.ok)).toHaveLength(25);
    const remaining = results.map((r) => r.remaining).sort((x, y) => y - x);
    // Every request saw its own count: 24, 23, …, 0 once each, then zeros for the refused ones.
    expect(remaining.slice(0, 25)).toEqual(Array.from({ length: 25 }, (_, i) => 24 - i));
    const after = await clock.settle(checkWith(key, { limit: 25, now: T, limiter: there }));
    expect(after.ok).toBe(false);
  });

  it("does nothing, and touches no table, when the limit is 0", async () => {
    const result = await checkRateLimit(newKey(), { limit: 0, now: T });
    expect(result).toEqual({ ok: true, limit: 0, remaining: 0, resetSeconds: 0 });
    expect(rateLimitHeaders(result)).toEqual({});
  });
});

describe("configuration and answers", () => {
  it("reads RATE_LIMIT_PER_MINUTE, 600 by default, 0 to disable", () => {
    const saved = process.env.RATE_LIMIT_PER_MINUTE;
    try {
      delete process.env.RATE_LIMIT_PER_MINUTE;
      expect(rateLimitPerMinute()).toBe(600);
      process.env.RATE_LIMIT_PER_MINUTE = "120";
      expect(rateLimitPerMinute()).toBe(120);
      process.env.RATE_LIMIT_PER_MINUTE = "0";
      expect(rateLimitPerMinute()).toBe(0);
      process.env.RATE_LIMIT_PER_MINUTE = "lots";
      expect(rateLimitPerMinute()).toBe(600);
    } finally {
      if (saved === undefined) delete process.env.RATE_LIMIT_PER_MINUTE;
      else process.env.RATE_LIMIT_PER_MINUTE = saved;
    }
  });

  it("keys tokens and sessions apart", () => {
    expect(rateLimitKey({ teamId: 1, actor: { kind: "token", tokenId: 7 } })).toBe("token:7");
    expect(rateLimitKey({ teamId: 1, actor: { kind: "agent", agentId: 2, agentName: "A", sessionId: 7 } })).toBe("session:7");
  });

  it("answers 429 with the Spanish message, Retry-After and X-RateLimit-* headers", async () => {
    const key = newKey();
    await checkRateLimit(key, { limit: 1, now: T });
    const refused = await checkRateLimit(key, { limit: 1, now: T });
    const res = toErrorResponse(rateLimitError(refused));
    expect(res.status).toBe(429);
    expect(await res.json()).toEqual({ message: "Demasiadas solicitudes. Intente de nuevo en 45 segundos." });
    expect(res.headers.get("retry-after")).toBe("45");
    expect(res.headers.get("x-ratelimit-limit")).toBe("1");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
    expect(res.headers.get("x-ratelimit-reset")).toBe("45");
    expect(tooManyRequestsMessage(3)).toBe("Demasiadas solicitudes. Intente de nuevo en 3 segundos.");
  });

  it("adds the budget headers to a successful answer without Retry-After", async () => {
    const allowed = await checkRateLimit(newKey(), { limit: 10, now: T });
    const res = withRateLimitHeaders(Response.json({ ok: true }), allowed);
    expect(res.headers.get("x-ratelimit-limit")).toBe("10");
    expect(res.headers.get("x-ratelimit-remaining")).toBe("9");
    expect(res.headers.get("x-ratelimit-reset")).toBe("45");
    expect(res.headers.get("retry-after")).toBeNull();
  });
});
