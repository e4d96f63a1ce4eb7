import { afterAll, describe, expect, it } from "vitest";
import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { Db } from "@/db/client";
import { getDb } from "@/db/client";
import * as schema from "@/db/schema";
import { rateLimits } from "@/db/schema";
import { FLUSH_INTERVAL_MS, LocalBudget, type SharedCount } from "@/lib/rate-limit/local-budget";
import { checkRateLimit, flushRateLimits, sharedCountOn } from "@/lib/rate-limit/service";
import { ManualClock } from "./helpers/manual-clock";

const MINUTE = 60_000;
// 15.5 s into a minute two minutes ahead: the whole test stays in one window, which the real
// clock's sweep leaves alone.
const T = (Math.floor(Date.now() / MINUTE) + 2) * MINUTE + 15_500;
const newKey = () => `test:${randomUUID()}`;

const closers: Array<() => Promise<void>> = [];
/** Another process's connection: on Postgres a pool of its own; PGlite is one embedded database. */
async function otherConnection(): Promise<Db> {
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

async function sharedRow(key: string): Promise<number | null> {
  const rows = await (
    await getDb()
  )
    .select({ count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, new Date(Math.floor(T / MINUTE) * MINUTE))));
  return rows.length ? Number(rows[0].count) : null;
}

/** Counts the statements a limiter sends, and when (on its clock). */
function counted(add: SharedCount, clock: ManualClock) {
  const sentAt: number[] = [];
  const wrapped: SharedCount = (key, start, delta) => {
    sentAt.push(clock.now());
    return add(key, start, delta);
  };
  return { add: wrapped, sentAt };
}

/** Lets every planned statement go, each at its time, until nothing counted is left unsent. */
async function drain(clock: ManualClock, ...limiters: LocalBudget[]) {
  while (limiters.some((l) => l.unsent > 0)) {
    await Promise.all(limiters.map((l) => l.statementsInFlight()));
    clock.advance(FLUSH_INTERVAL_MS);
    await Promise.all(limiters.map((l) => l.statementsInFlight()));
  }
}

describe("the limiter counted in each process (lib/rate-limit/local-budget.ts)", () => {
  it("holds a burst across two processes within 5 % of the limit, and admits the limit when demand exceeds it", async () => {
    const limit = 2_000;
    const key = newKey();
    const clock = new ManualClock(T);
    const a = new LocalBudget({ add: sharedCountOn(getDb), clock });
    const b = new LocalBudget({ add: sharedCountOn(await otherConnection()), clock });
    // 3,000 requests within 200 ms, both processes at once: 30 rounds of 50 each, 7 ms apart,
    // so statements of each process go while the other keeps admitting.
    const answers: Array<Promise<{ ok: boolean }>> = [];
    for (let round = 0; round < 30; round++) {
      for (let i = 0; i < 50; i++) {
        answers.push(checkRateLimit(key, { limit, now: T, limiter: a }));
        answers.push(checkRateLimit(key, { limit, now: T, limiter: b }));
      }
      clock.advance(7);
      // Each process's statement in flight answers before the next round, as a real one would
      // within a few milliseconds.
      await Promise.all([a.statementsInFlight(), b.statementsInFlight()]);
    }
    const results = await clock.settle(Promise.all(answers));
    await drain(clock, a, b);
    const admitted = results.filter((r) => r.ok).length;
    expect(admitted).toBeGreaterThanOrEqual(limit * 0.95);
    expect(admitted).toBeLessThanOrEqual(limit * 1.05);
    // Every request went into the shared count: the limit was reached, nothing was lost.
    expect(await sharedRow(key)).toBe(3_000);
    // Late requests: a process whose last statement came before the other's may still admit up
    // to its share before its next statement tells it; the total stays within the bound.
    const late = await clock.settle(
      Promise.all(Array.from({ length: 200 }, (_, i) => checkRateLimit(key, { limit, now: T, limiter: i % 2 ? a : b }))),
    );
    await drain(clock, a, b);
    const total = admitted + late.filter((r) => r.ok).length;
    console.log(`[rate-limit burst] limit ${limit}: ${admitted} of 3000 admitted in the burst, ${total} with 200 late requests`);
    expect(total).toBeLessThanOrEqual(limit * 1.05);
    // Both processes now know: they refuse without a statement.
    expect(await checkRateLimit(key, { limit, now: T, limiter: a })).toMatchObject({ ok: false, remaining: 0 });
    expect(await checkRateLimit(key, { limit, now: T, limiter: b })).toMatchObject({ ok: false, remaining: 0 });
    expect(a.unsent + b.unsent).toBe(0);
  });

  it("admits every request of two processes while their sum stays under the limit", async () => {
    const key = newKey();
    const clock = new ManualClock(T);
    const a = new LocalBudget({ add: sharedCountOn(getDb), clock });
    const b = new LocalBudget({ add: sharedCountOn(await otherConnection()), clock });
    const answers = Array.from({ length: 900 }, (_, i) => checkRateLimit(key, { limit: 1_000, now: T, limiter: i % 2 ? a : b }));
    const results = await clock.settle(Promise.all(answers));
    expect(results.every((r) => r.ok)).toBe(true);
    await drain(clock, a, b);
    expect(await sharedRow(key)).toBe(900);
  });

  it("sends N requests of one key in at most ceil(duration / 250 ms) statements, none per request", async () => {
    const key = newKey();
    const clock = new ManualClock(T);
    const { add, sentAt } = counted(sharedCountOn(getDb), clock);
    const limiter = new LocalBudget({ add, clock });
    let admitted = 0;
    // 2 s of traffic: 20 requests every 10 ms, 4,000 in all.
    for (let step = 0; step < 200; step++) {
      const answers = await Promise.all(Array.from({ length: 20 }, () => checkRateLimit(key, { limit: 1_000_000, now: T, limiter })));
      admitted += answers.filter((r) => r.ok).length;
      if (step === 20) expect(sentAt).toEqual([]); // 420 requests in the first 200 ms: no statement yet
      clock.advance(10);
      await limiter.statementsInFlight();
    }
    await drain(clock, limiter);
    const duration = sentAt[sentAt.length - 1] - T;
    console.log(`[rate-limit writes] 4000 requests over ${duration} ms: ${sentAt.length} statements`);
    expect(admitted).toBe(4_000);
    expect(sentAt.length).toBeGreaterThan(1);
    expect(sentAt.length).toBeLessThanOrEqual(Math.ceil(duration / FLUSH_INTERVAL_MS));
    // Statements of one key are never closer than the interval.
    for (let i = 1; i < sentAt.length; i++) expect(sentAt[i] - sentAt[i - 1]).toBeGreaterThanOrEqual(FLUSH_INTERVAL_MS);
    expect(await sharedRow(key)).toBe(4_000);
  });

  it("sends the counts still pending when the process shuts down", async () => {
    const key = newKey();
    // This process's own limiter, as the routes use it: no statement within the requests.
    for (let i = 0; i < 50; i++) expect((await checkRateLimit(key, { limit: 100_000, now: T })).ok).toBe(true);
    await flushRateLimits();
    expect(await sharedRow(key)).toBe(50);
  });

  it("writes nothing while a request is admitted locally", async () => {
    const key = newKey();
    const clock = new ManualClock(T);
    const limiter = new LocalBudget({ add: sharedCountOn(getDb), clock });
    for (let i = 0; i < 30; i++) await checkRateLimit(key, { limit: 100_000, now: T, limiter });
    expect(await sharedRow(key)).toBeNull();
    await limiter.flushAll();
    expect(await sharedRow(key)).toBe(30);
  });
});
