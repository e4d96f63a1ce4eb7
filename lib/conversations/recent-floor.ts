import { ALL_IDS, type PartitionBounds } from "@/lib/messages/history-bounds";

/**
 * The conversation list joins each row to its last message on `last_message_id`. `messages` is
 * partitioned by id, and such a join chooses partitions row by row, so PostgreSQL starts a scan of
 * every partition at every execution (52 on the bench's 50 M set, four years of months): most of
 * an empty page's cost. The join also carries `id >= floor`, written into the statement's text,
 * so the planner leaves the partitions below out of the plan: only those from the floor up are
 * scanned. Rows whose last message lies below the floor (a conversation quiet for longer than
 * RECENT_MS) come back without it and are completed by a second statement for those rows alone
 * (lib/conversations/repo.ts). So the floor never loses a row, whatever its value: a stale one
 * only costs that second statement more often.
 */

/** How far back the list's own join reaches: the partitions with messages of the last 31 days. */
const RECENT_MS = 31 * 86_400_000;
/** The least id: no partition left out. */
const NO_FLOOR = ALL_IDS.lo;

/**
 * The first id of the partitions holding messages of the last RECENT_MS, or of the newest
 * partition with any message when none does; NO_FLOOR when there is no message at all.
 */
export function recentIdFloor(bounds: PartitionBounds[], now = Date.now()): number {
  const withRows = bounds.filter((b) => b.maxCreatedAt !== null);
  if (!withRows.length) return NO_FLOOR;
  const recent = withRows.filter((b) => b.maxCreatedAt!.getTime() >= now - RECENT_MS);
  if (recent.length) return Math.min(...recent.map((b) => b.lo));
  return Math.max(...withRows.map((b) => b.lo));
}
