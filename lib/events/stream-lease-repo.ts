import "server-only";
import { inArray, lt, sql } from "drizzle-orm";
import { rowsOf, type DbOrTx } from "@/db/client";
import { ADVISORY_LOCKS } from "@/db/advisory-locks";
import { openStreams } from "@/db/schema";

/**
 * Data layer of the stream leases (used by lib/events/stream-registry.ts). Lease times are the database's
 * clock, the one every process shares.
 */

/**
 * Takes a lease for one more stream of `holder` while it holds fewer than `max` live ones; null
 * when it holds `max`. Opens of one holder serialize on an advisory lock held to the commit, so
 * concurrent opens, in any process, cannot pass the cap together.
 */
export async function takeLease(
  db: DbOrTx,
  { holder, max, leaseSeconds }: { holder: string; max: number; leaseSeconds: number },
): Promise<number | null> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCKS.streamLeases}, hashtext(${holder}))`);
  const res = await db.execute(sql`
    INSERT INTO open_streams (holder, expires_at)
    SELECT ${holder}, now() + make_interval(secs => ${leaseSeconds})
    WHERE (SELECT count(*) FROM open_streams WHERE holder = ${holder} AND expires_at > now()) < ${max}
    RETURNING id`);
  const [row] = rowsOf<{ id: number | string }>(res);
  return row ? Number(row.id) : null;
}

/**
 * Renews the leases of the streams still open here; a lease already swept (this process stalled
 * past it) is written again, so the count never forgets a stream that is open.
 */
export async function renewLeases(
  db: DbOrTx,
  { leases, leaseSeconds }: { leases: { id: number; holder: string }[]; leaseSeconds: number },
): Promise<void> {
  if (!leases.length) return;
  const expiresAt = sql`now() + make_interval(secs => ${leaseSeconds})`;
  await db
    .insert(openStreams)
    .values(leases.map((l) => ({ id: l.id, holder: l.holder, expiresAt })))
    .onConflictDoUpdate({ target: openStreams.id, set: { expiresAt: sql`excluded.expires_at` } });
}

export async function dropLeases(db: DbOrTx, ids: number[]): Promise<void> {
  if (ids.length) await db.delete(openStreams).where(inArray(openStreams.id, ids));
}

/** Leases of processes that died: they stopped counting at expiry; their rows go a minute later. */
export async function deleteExpiredLeases(db: DbOrTx): Promise<void> {
  await db.delete(openStreams).where(lt(openStreams.expiresAt, sql`now() - interval '1 minute'`));
}

/** Live leases of a holder (tests, diagnostics). */
export async function countLeases(db: DbOrTx, holder: string): Promise<number> {
  const res = await db.execute(sql`SELECT count(*)::int AS n FROM open_streams WHERE holder = ${holder} AND expires_at > now()`);
  return Number(rowsOf<{ n: number }>(res)[0]?.n ?? 0);
}
