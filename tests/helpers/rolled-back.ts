import { getDb, type Tx } from "@/db/client";

/**
 * Runs `fn` in a transaction of the test database and rolls it back, returning what `fn` returned:
 * the rows, statistics and catalog writes a plan test makes must not outlive it.
 */
export async function rolledBack<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  const db = await getDb();
  const got: { value?: T; done?: boolean } = {};
  await db
    .transaction(async (tx) => {
      got.value = await fn(tx);
      got.done = true;
      tx.rollback();
    })
    .catch((err: unknown) => {
      if (!got.done) throw err;
    });
  return got.value as T;
}
