import { lt, sql } from "drizzle-orm";
import { getDb, type Db } from "@/db/client";
import { rateLimits } from "@/db/schema";

function prepareBump(db: Db) {
  return db
    .insert(rateLimits)
    .values({ key: sql.placeholder("key"), windowStart: sql.placeholder("windowStart"), count: 1 })
    .onConflictDoUpdate({ target: [rateLimits.key, rateLimits.windowStart], set: { count: sql`${rateLimits.count} + 1` } })
    .returning({ count: rateLimits.count })
    .prepare("rate_limit_bump");
}

// A named statement is parsed once per connection; an unnamed one with parameters costs
// postgres.js an extra describe round trip on every call, on the hot path of every request.
const prepared = new WeakMap<Db, ReturnType<typeof prepareBump>>();

/**
 * One statement per request: the first hit of a window inserts its row, every later one bumps it
 * under the row lock, so concurrent requests on any replica each see a distinct count.
 */
export async function bumpWindow(key: string, windowStart: Date, db?: Db): Promise<number> {
  db ??= await getDb();
  let statement = prepared.get(db);
  if (!statement) prepared.set(db, (statement = prepareBump(db)));
  const [row] = await statement.execute({ key, windowStart });
  return Number(row.count);
}

export async function deleteWindowsBefore(cutoff: Date): Promise<void> {
  const db = await getDb();
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, cutoff));
}
