import "server-only";
import { and, eq, gt, inArray, isNull, lt, or, sql } from "drizzle-orm";
import type { DbOrTx } from "@/db/client";
import { signInAttempts } from "@/db/schema";

/** Data layer of the sign-in throttle (lib/auth/sign-in-throttle.ts). Every time comes from the caller's clock. */
export type AttemptRow = { key: string; failures: number; lastFailureAt: Date | null; lastSuccessAt: Date | null };

export async function readAttempts(db: DbOrTx, keys: string[]): Promise<AttemptRow[]> {
  return db
    .select({
      key: signInAttempts.key,
      failures: signInAttempts.failures,
      lastFailureAt: signInAttempts.lastFailureAt,
      lastSuccessAt: signInAttempts.lastSuccessAt,
    })
    .from(signInAttempts)
    .where(inArray(signInAttempts.key, keys));
}

/**
 * Counts one failure in advance for an attempt let through a delay, only if the row is still as
 * it was read (compare-and-set on failures and last failure): of parallel attempts that read the
 * same row, exactly one gets through. True when it did.
 */
export async function claimAttempt(db: DbOrTx, { seen, now }: { seen: AttemptRow; now: Date }): Promise<boolean> {
  const rows = await db
    .update(signInAttempts)
    .set({ failures: seen.failures + 1, lastFailureAt: now })
    .where(
      and(
        eq(signInAttempts.key, seen.key),
        eq(signInAttempts.failures, seen.failures),
        seen.lastFailureAt ? eq(signInAttempts.lastFailureAt, seen.lastFailureAt) : isNull(signInAttempts.lastFailureAt),
      ),
    )
    .returning({ key: signInAttempts.key });
  return rows.length === 1;
}

/** One more failure, counted from 1 again when the last one is older than `forgetBefore`. */
export async function recordFailure(db: DbOrTx, { key, now, forgetBefore }: { key: string; now: Date; forgetBefore: Date }): Promise<void> {
  await db
    .insert(signInAttempts)
    .values({ key, failures: 1, lastFailureAt: now })
    .onConflictDoUpdate({
      target: signInAttempts.key,
      set: {
        failures: sql`CASE WHEN ${signInAttempts.lastFailureAt} IS NULL OR ${signInAttempts.lastFailureAt} < ${forgetBefore.toISOString()}::timestamptz
          THEN 1 ELSE ${signInAttempts.failures} + 1 END`,
        lastFailureAt: sql`greatest(${signInAttempts.lastFailureAt}, ${now.toISOString()}::timestamptz)`,
      },
    });
}

/** A right password: the pair's failures are forgotten and the pair is known from now; so are the account's failures. */
export async function recordSuccess(
  db: DbOrTx,
  { pairKey, accountKey, now }: { pairKey: string; accountKey: string; now: Date },
): Promise<void> {
  await db
    .insert(signInAttempts)
    .values({ key: pairKey, failures: 0, lastFailureAt: null, lastSuccessAt: now })
    .onConflictDoUpdate({ target: signInAttempts.key, set: { failures: 0, lastFailureAt: null, lastSuccessAt: now } });
  await db.delete(signInAttempts).where(eq(signInAttempts.key, accountKey));
}

/** Gives back failures counted in advance by `claimAttempt` for attempts that could not be checked. */
export async function giveBackClaims(db: DbOrTx, keys: string[]): Promise<void> {
  if (!keys.length) return;
  await db
    .update(signInAttempts)
    .set({ failures: sql`${signInAttempts.failures} - 1` })
    .where(and(inArray(signInAttempts.key, keys), gt(signInAttempts.failures, 0)));
}

/** Deletes rows that neither slow anyone down nor mark a known address any more. */
export async function deleteStaleAttempts(
  db: DbOrTx,
  { failuresBefore, successesBefore }: { failuresBefore: Date; successesBefore: Date },
): Promise<void> {
  await db
    .delete(signInAttempts)
    .where(
      and(
        or(isNull(signInAttempts.lastFailureAt), lt(signInAttempts.lastFailureAt, failuresBefore)),
        or(isNull(signInAttempts.lastSuccessAt), lt(signInAttempts.lastSuccessAt, successesBefore)),
      ),
    );
}
