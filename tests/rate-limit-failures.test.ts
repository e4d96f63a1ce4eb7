import { randomUUID } from "node:crypto";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db/client";
import { rateLimits } from "@/db/schema";
import { bumpWindow } from "@/lib/rate-limit/repo";
import { FAILURE_WINDOW_SECONDS, releaseFailure, reserveFailure } from "@/lib/rate-limit/failures";
import { LONG_KEY_PREFIX, sweep } from "@/lib/rate-limit/service";
import { waitFor } from "./helpers/wait";

const W = FAILURE_WINDOW_SECONDS * 1000;
const failKey = () => `${LONG_KEY_PREFIX}test:${randomUUID()}`;

describe("failure budgets (lib/rate-limit/failures.ts)", () => {
  // First: the sweep runs at most once a minute per process, and reservations trigger it too.
  it("survive the rate limiter's sweep, which deletes per-minute windows after two minutes", async () => {
    const db = await getDb();
    const now = Date.now();
    const fail = failKey();
    const api = `test:${randomUUID()}`;
    const failStart = new Date(Math.floor(now / W) * W - W); // the previous 15-minute window
    const apiStart = new Date(now - 5 * 60_000);
    await bumpWindow(db, { key: fail, windowStart: failStart });
    await bumpWindow(db, { key: api, windowStart: apiStart });
    sweep(60_000);
    const exists = async (key: string, start: Date) =>
      (
        await db
          .select()
          .from(rateLimits)
          .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, start)))
      ).length > 0;
    await waitFor(
      () => exists(api, apiStart),
      (e) => !e,
      10_000,
      25,
      "return",
    );
    expect(await exists(api, apiStart)).toBe(false);
    expect(await exists(fail, failStart)).toBe(true);
  });
  it("count the previous 15-minute window too: no 15 minutes hold more than the limit, even across a boundary", async () => {
    const key = failKey();
    const boundary = (Math.floor(Date.now() / W) + 1) * W;
    for (let i = 0; i < 6; i++) expect((await reserveFailure(key, 10, boundary - 2_000)).ok).toBe(true);
    for (let i = 0; i < 4; i++) expect((await reserveFailure(key, 10, boundary + 1_000)).ok).toBe(true);
    const refused = await reserveFailure(key, 10, boundary + 1_000);
    // Room again when the window holding the 6 stops counting: at the end of the new one.
    expect(refused).toEqual({ ok: false, retryAfter: FAILURE_WINDOW_SECONDS - 1 });
    // A full window alone keeps the budget spent for one more window after it.
    const full = failKey();
    for (let i = 0; i < 10; i++) await reserveFailure(full, 10, boundary + 1_000);
    expect(await reserveFailure(full, 10, boundary + 1_000)).toEqual({ ok: false, retryAfter: 2 * FAILURE_WINDOW_SECONDS - 1 });
  });

  it("parallel reservations never take more than the limit, and a released slot can be taken again", async () => {
    const key = failKey();
    const results = await Promise.all(Array.from({ length: 30 }, () => reserveFailure(key, 7)));
    const taken = results.filter((r) => r.ok);
    expect(taken).toHaveLength(7);
    expect((await reserveFailure(key, 7)).ok).toBe(false);
    const first = taken[0];
    if (first.ok) await releaseFailure(first.slot);
    expect((await reserveFailure(key, 7)).ok).toBe(true);
  });
});
