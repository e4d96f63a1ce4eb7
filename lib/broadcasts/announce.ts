import "server-only";
import type { DbOrTx } from "@/db/client";
import { insertEvents } from "@/lib/events/repo";
import { statsOf } from "./dtos";
import { NOW, updateBroadcast, type BroadcastRow } from "./repo";
import type { BroadcastCounts } from "./schemas";

/** Events of one broadcast's progress (its messages changing status) are at most one a second. */
export const PROGRESS_EVERY_MS = 1000;

/**
 * A `broadcast.updated` event for the row as it stands, in the caller's transaction (announced
 * when it commits), and the throttle's marks: when and what was last announced.
 */
export async function announce(tx: DbOrTx, row: BroadcastRow, counts?: BroadcastCounts) {
  const c = counts ?? (await statsOf(tx, row.teamId, [row])).get(row.id)!.counts;
  const key = JSON.stringify([row.status, c]);
  await insertEvents(tx, [
    { teamId: row.teamId, type: "broadcast.updated", waNumberId: row.waNumberId, data: { id: row.id, status: row.status, counts: c } },
  ]);
  await updateBroadcast(tx, { teamId: row.teamId, id: row.id, values: { progressAt: NOW, progressKey: key } });
}
