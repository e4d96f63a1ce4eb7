import "server-only";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";

export type StoredKey = { requestHash: string; statusCode: number | null; response: unknown };

const liveSince = (ttlHours: number) => sql`now() - ${ttlHours} * interval '1 hour'`;

/** The team's key if it is still live (younger than `ttlHours`). */
export async function findKey(
  db: DbOrTx,
  { teamId, key, ttlHours }: { teamId: number; key: string; ttlHours: number },
): Promise<StoredKey | undefined> {
  const [row] = await db
    .select({ requestHash: idempotencyKeys.requestHash, statusCode: idempotencyKeys.statusCode, response: idempotencyKeys.response })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.teamId, teamId), eq(idempotencyKeys.key, key), gt(idempotencyKeys.createdAt, liveSince(ttlHours))))
    .limit(1);
  return row;
}

/**
 * Inserts the key unless a live one exists; an expired one (not yet swept) is taken over. A
 * concurrent insert of the same key waits on the primary key until the first transaction ends,
 * so exactly one caller gets `true`.
 */
export async function insertKeyIfAbsent(
  db: DbOrTx,
  {
    values,
    ttlHours,
  }: { values: { teamId: number; key: string; requestHash: string; statusCode: number; response: unknown }; ttlHours: number },
): Promise<boolean> {
  const rows = await db
    .insert(idempotencyKeys)
    .values(values)
    .onConflictDoUpdate({
      target: [idempotencyKeys.teamId, idempotencyKeys.key],
      set: { requestHash: values.requestHash, statusCode: values.statusCode, response: values.response, createdAt: sql`now()` },
      setWhere: lt(idempotencyKeys.createdAt, liveSince(ttlHours)),
    })
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}

/** Deletes expired keys (served by `idempotency_keys_created_idx`); returns how many. */
export async function deleteKeysOlderThan(db: DbOrTx, ttlHours: number): Promise<number> {
  const rows = await db
    .delete(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, liveSince(ttlHours)))
    .returning({ key: idempotencyKeys.key });
  return rows.length;
}
