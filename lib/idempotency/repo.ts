import { and, eq } from "drizzle-orm";
import { getDb, type DbOrTx } from "@/db/client";
import { idempotencyKeys } from "@/db/schema";

export type StoredKey = { requestHash: string; statusCode: number | null; response: unknown };

export async function findKey(teamId: number, key: string, db?: DbOrTx): Promise<StoredKey | undefined> {
  const conn = db ?? (await getDb());
  const [row] = await conn
    .select({ requestHash: idempotencyKeys.requestHash, statusCode: idempotencyKeys.statusCode, response: idempotencyKeys.response })
    .from(idempotencyKeys)
    .where(and(eq(idempotencyKeys.teamId, teamId), eq(idempotencyKeys.key, key)))
    .limit(1);
  return row;
}

/**
 * Inserts the key unless it exists. A concurrent insert of the same key waits on the primary key
 * until the first transaction ends, so exactly one caller gets `true`.
 */
export async function insertKeyIfAbsent(
  tx: DbOrTx,
  values: { teamId: number; key: string; requestHash: string; statusCode: number; response: unknown },
): Promise<boolean> {
  const rows = await tx
    .insert(idempotencyKeys)
    .values(values)
    .onConflictDoNothing({ target: [idempotencyKeys.teamId, idempotencyKeys.key] })
    .returning({ key: idempotencyKeys.key });
  return rows.length === 1;
}
