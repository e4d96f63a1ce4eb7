import { config } from "@/lib/config";
import { pruneEventsBefore } from "./repo";

/**
 * Deletes events past the retention (EVENTS_RETENTION_HOURS, at least 24) in batches of 5,000
 * (each delete stays short; SKIP LOCKED lets several processes prune at once).
 */
export async function pruneEvents(): Promise<void> {
  const before = new Date(Date.now() - config.eventsRetentionHours * 3600_000);
  for (let i = 0; i < 100; i++) if ((await pruneEventsBefore(before, 5_000)) === 0) break;
}
