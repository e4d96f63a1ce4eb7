import { lt, sql } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { preparedOnce } from "@/db/prepared";
import { rateLimits } from "@/db/schema";

// On the hot path of every request: built once per handle, run as a prepared statement.
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
export async function bumpWindow(key: string, windowStart: Date, db?: Db): Promise<number> {
  const [row] = await bump(db ?? (await getDb())).execute({ key, windowStart });
  return Number(row.count);
}

export async function deleteWindowsBefore(cutoff: Date): Promise<void> {
  const db = await getDb();
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, cutoff));
}
