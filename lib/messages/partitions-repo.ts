import "server-only";
import { sql } from "drizzle-orm";
import { rowsOf, type DbOrTx, type Tx } from "@/db/client";
import { ADVISORY_LOCKS } from "@/db/advisory-locks";

// Every process runs the messages chore; one at a time does the partition work (the others skip it).
const PARTITIONS_LOCK = ADVISORY_LOCKS.messagePartitions;

/**
 * What a run did: months made, months dropped, and whether messages_tail holds rows (ids outran
 * every month made ahead: no later month can be made, docs/write-path.md, "Messages are partitioned by month of ids").
 */
export type MessagePartitionsWork = { made: number; dropped: number; tailInUse: boolean };

/**
 * The monthly partitions of messages (db/functions/messages_partitions.sql) as of `at`: makes
 * the current and next months' and one unused ahead (each at least `minCapacity` ids), jumps the
 * sequence to the month's partition, and, with `retentionMonths`, drops the months wholly past it.
 * Attaching, detaching and dropping lock messages for a moment: with a 2 s lock_timeout the work
 * gives way to a long writer and is tried again at the next run, rather than making every writer
 * queue behind it. Undefined when another process holds the work. Runs in the caller's
 * transaction (a `Tx`: the lock and lock_timeout last for that transaction).
 */
export async function maintainMessagePartitions(
  db: Tx,
  { at, minCapacity, retentionMonths }: { at: Date; minCapacity: number; retentionMonths: number | undefined },
): Promise<MessagePartitionsWork | undefined> {
  const [lock] = rowsOf<{ ok: boolean }>(await db.execute(sql`SELECT pg_try_advisory_xact_lock(${PARTITIONS_LOCK}) AS ok`));
  if (!lock?.ok) return undefined;
  await db.execute(sql`SET LOCAL lock_timeout = '2s'`);
  const when = at.toISOString();
  const [made] = rowsOf<{ made: number; tail_in_use: boolean }>(
    await db.execute(sql`SELECT * FROM messages_ensure_partitions(${when}::timestamptz, ${minCapacity}::bigint)`),
  );
  let dropped = 0;
  if (retentionMonths !== undefined) {
    const [row] = rowsOf<{ n: number }>(
      await db.execute(sql`SELECT messages_drop_partitions(${when}::timestamptz, ${retentionMonths}::int) AS n`),
    );
    dropped = Number(row.n);
  }
  return { made: Number(made.made), dropped, tailInUse: made.tail_in_use };
}

export type MessagePartition = { name: string; lo: number | null; hi: number };

/** The month partitions of messages in id order (lo null: the one from before partitioning); not the tail. */
export async function listMessagePartitions(db: DbOrTx): Promise<MessagePartition[]> {
  const rows = rowsOf<{ name: string; lo: string | null; hi: string }>(
    await db.execute(sql`SELECT name, lo, hi FROM messages_partition_ranges() ORDER BY hi`),
  );
  return rows.map((r) => ({ name: r.name, lo: r.lo === null ? null : Number(r.lo), hi: Number(r.hi) }));
}
