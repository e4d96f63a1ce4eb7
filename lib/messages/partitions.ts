import { transaction } from "@/db/client";
import { config } from "@/lib/config";
import { maintainMessagePartitions, type MessagePartitionsWork } from "./partitions-repo";

/** The least room of a new month's partition, in ids (db/functions/messages_partitions.sql sizes it). */
export const MIN_PARTITION_IDS = 1_000_000;

/**
 * The monthly partitions of messages (migration 0037): the current and next months' made ahead,
 * the sequence moved to the month's partition when a month begins, and, with
 * MESSAGES_RETENTION_MONTHS, the months wholly past it dropped with the rows that reference them.
 * Every process runs it (lib/chores/schedule.ts); one at a time does the work.
 */
export async function maintainMessages(at: Date = new Date()): Promise<MessagePartitionsWork | undefined> {
  const work = await transaction((tx) =>
    maintainMessagePartitions(tx, { at, minCapacity: MIN_PARTITION_IDS, retentionMonths: config.messagesRetentionMonths }),
  );
  // Nothing is lost (the tail takes every id), but no month is made any more: an operator's matter (docs/write-path.md).
  if (work?.tailInUse) console.warn("[chores] messages_tail holds rows: no later month of messages can be made (README)");
  return work;
}
