import "server-only";
import { and, eq, gt, inArray, lt, or, sql } from "drizzle-orm";
import { rowsOf, type Db, type DbOrTx } from "@/db/client";
import { preparedOnce } from "@/db/prepared";
import { rateLimits } from "@/db/schema";

// On the hot path of every request: built once per handle, run as a prepared statement (so the
// two functions below take `Db`, not `DbOrTx`: db/prepared.ts keys them by pool handle).
const bump = preparedOnce((db) =>
  db
    .insert(rateLimits)
    .values({ key: sql.placeholder("key"), windowStart: sql.placeholder("windowStart"), count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count })
    .prepare("rate_limit_bump"),
);

/**
 * One statement per request: the first hit of a window inserts its row, every later one bumps it
 * under the row lock, so concurrent requests on any replica each see a distinct count.
 */
export async function bumpWindow(db: Db, { key, windowStart }: { key: string; windowStart: Date }): Promise<number> {
  const [row] = await bump(db).execute({ key, windowStart });
  return Number(row.count);
}

const add = preparedOnce((db) =>
  db
    .insert(rateLimits)
    .values({ key: sql.placeholder("key"), windowStart: sql.placeholder("windowStart"), count: sql.placeholder("delta") })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + excluded.count` } })
    .returning({ count: rateLimits.count })
    .prepare("rate_limit_add"),
);

/**
 * Adds a process's batch of requests to a window in one statement and returns the new total
 * (lib/rate-limit/local-budget.ts): the row lock makes the totals of concurrent batches distinct,
 * so each batch knows the places its requests took.
 */
export async function addToWindow(db: Db, { key, windowStart, delta }: { key: string; windowStart: Date; delta: number }): Promise<number> {
  const [row] = await add(db).execute({ key, windowStart, delta });
  return Number(row.count);
}

/**
 * Deletes past windows: keys starting with `longPrefix` (the failure budgets, which look back
 * further) before `longCutoff`, every other key before `cutoff`.
 */
export async function deleteWindowsBefore(
  db: DbOrTx,
  { cutoff, longPrefix, longCutoff }: { cutoff: Date; longPrefix: string; longCutoff: Date },
): Promise<void> {
  await db
    .delete(rateLimits)
    .where(
      or(
        lt(rateLimits.windowStart, longCutoff),
        and(lt(rateLimits.windowStart, cutoff), sql`left(${rateLimits.key}, ${longPrefix.length}) <> ${longPrefix}`),
      ),
    );
}

/**
 * Takes one slot of a failure budget in one statement: counts the key's current window plus the
 * previous one (so no 15-minute span ever holds more than `limit`) and bumps the current window
 * only while that sum is below `limit`. Concurrent callers serialize on the row lock, so no burst
 * gets past the limit. Returns the new count of the current window, or null when the budget is spent.
 */
export async function reserveInWindow(
  db: DbOrTx,
  { key, windowStart, previousStart, limit }: { key: string; windowStart: Date; previousStart: Date; limit: number },
): Promise<number | null> {
  const res = await db.execute(sql`
    WITH prev AS (
      SELECT coalesce(sum(count), 0)::int AS n FROM rate_limits
      WHERE key = ${key} AND window_start = ${previousStart.toISOString()}::timestamptz
    )
    INSERT INTO rate_limits AS r (key, window_start, count)
    SELECT ${key}, ${windowStart.toISOString()}::timestamptz, 1 FROM prev WHERE prev.n < ${limit}
    ON CONFLICT (key, window_start) DO UPDATE SET count = r.count + 1
      WHERE r.count + (SELECT n FROM prev) < ${limit}
    RETURNING r.count`);
  const [row] = rowsOf<{ count: number }>(res);
  return row ? Number(row.count) : null;
}

/** Gives back one slot taken by `reserveInWindow` (the attempt turned out not to be a failure). */
export async function releaseInWindow(db: DbOrTx, { key, windowStart }: { key: string; windowStart: Date }): Promise<void> {
  await db
    .update(rateLimits)
    .set({ count: sql`${rateLimits.count} - 1` })
    .where(and(eq(rateLimits.key, key), eq(rateLimits.windowStart, windowStart), gt(rateLimits.count, 0)));
}

/** Counts of a key in the given windows (missing windows count 0). */
export async function countsInWindows(db: DbOrTx, { key, starts }: { key: string; starts: Date[] }): Promise<number[]> {
  const rows = await db
    .select({ windowStart: rateLimits.windowStart, count: rateLimits.count })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, key), inArray(rateLimits.windowStart, starts)));
  return starts.map((s) => Number(rows.find((r) => r.windowStart.getTime() === s.getTime())?.count ?? 0));
}
