import { getDb, transaction } from "@/db/client";
import { config } from "@/lib/config";
import { maintainEventPartitions, pruneEventsBefore } from "./repo";

/** Days of partitions made ahead: a week of writes never lands in the default partition. */
export const PARTITIONS_AHEAD_DAYS = 7;
const DAY_MS = 86_400_000;

/**
 * The event log's retention (EVENTS_RETENTION_HOURS, default a week, at least 24 h): each day is
 * a partition (migration 0032), dropped whole once its last hour is past the retention, so an
 * event is kept at least the retention and at most a day longer. Rows no day's drop can take (the
 * default partition's, and those of the partition from before partitioning) are deleted once a
 * day older, in batches of 5,000 (each delete stays short; SKIP LOCKED lets several processes
 * prune at once). Also makes the coming days' partitions.
 */
export async function pruneEvents(): Promise<void> {
  const retentionMs = config.eventsRetentionHours * 3600_000;
  const dropBefore = new Date(Date.now() - retentionMs);
  await transaction((tx) => maintainEventPartitions(tx, { daysAhead: PARTITIONS_AHEAD_DAYS, dropBefore }));
  const before = new Date(Date.now() - retentionMs - DAY_MS);
  const db = await getDb();
  for (let i = 0; i < 100; i++) if ((await pruneEventsBefore(db, { before, batch: 5_000 })) === 0) break;
}
