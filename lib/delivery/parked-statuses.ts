import { getDb, transaction } from "@/db/client";
import type { ParkedReason } from "@/db/schema";
import type { StatusUpdate } from "@/lib/channels/types";
import { withSecrets } from "@/lib/channels/credentials";
import { isRetryableTxError, pgErrorCode } from "@/db/errors";
import { findNumbersByIds } from "./repo";
import { claimParked, deferParked, deleteParked, expireParked } from "./parked-statuses-repo";
import { applyStatus } from "./status";

/** A status whose message never appears is kept this long, then moved to webhook_dead_letters. */
export const PARKED_MAX_AGE_MS = 7 * 86_400_000;
const BATCH = 200;
const LEASE_MS = 30_000;

/**
 * When a parked status is tried again. A `leased` one waits for a worker's commit, usually within
 * the second, or for its lease to run out (then its wamid is adopted): tried every second. An
 * `unknown` or `retry` one backs off from 1 s, doubling, to 10 minutes (about 1,000 tries over
 * the 7 days it is kept).
 */
export function parkedRetryDelayMs(reason: ParkedReason, attempts: number): number {
  if (reason === "leased") return 1000;
  return Math.min(1000 * 2 ** Math.min(Math.max(attempts - 1, 0), 20), 10 * 60_000);
}

/**
 * Applies the parked statuses that are due (the chore of lib/chores/schedule.ts, run by every process
 * about once a second; claims never overlap): each in its own transaction, which deletes the
 * parked row exactly when it applies or records the status. Returns how many were settled.
 */
export async function applyParkedStatuses(teamIds?: number[]): Promise<number> {
  const db = await getDb();
  await expireParked(db, { maxAgeMs: PARKED_MAX_AGE_MS, limit: 1000 });
  let settled = 0;
  for (;;) {
    const rows = await claimParked(db, { limit: BATCH, leaseMs: LEASE_MS, teamIds });
    if (!rows.length) return settled;
    const numbers = new Map((await findNumbersByIds(db, [...new Set(rows.map((r) => r.waNumberId))])).map((n) => [n.id, withSecrets(n)]));
    for (const row of rows) {
      const number = numbers.get(row.waNumberId);
      if (!number) continue; // its number is gone: the cascade takes the row
      const update = row.update as unknown as StatusUpdate;
      try {
        const outcome = await transaction(async (tx) => {
          const result = await applyStatus(tx, number, update);
          if (result === "applied" || result === "ignored") await deleteParked(tx, row.id);
          return result;
        });
        if (outcome === "applied" || outcome === "ignored") settled++;
        else await deferParked(db, { id: row.id, reason: outcome, delayMs: parkedRetryDelayMs(outcome, row.attempts) });
      } catch (err) {
        const reason: ParkedReason = isRetryableTxError(err) ? "retry" : row.reason;
        // The error's code only: drizzle's message carries the query's parameters (the status's data).
        if (!isRetryableTxError(err)) console.error(`[status] parked status ${row.id} failed (${pgErrorCode(err) ?? "error"})`);
        await deferParked(db, { id: row.id, reason, delayMs: parkedRetryDelayMs("retry", row.attempts) }).catch(() => {});
      }
    }
    if (rows.length < BATCH) return settled;
  }
}
