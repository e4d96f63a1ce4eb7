import { pruneEvents } from "@/lib/events/prune";
import { applyParkedStatuses } from "@/lib/delivery/parked-statuses";
import { foldMessageStatsDeltas } from "@/lib/messages/stats-repo";
import { foldReportHistogramDeltas, foldReportMessageDeltas } from "@/lib/reports/repo";

/**
 * The periodic chores every process runs (each web process and each `npm run worker`): one
 * table with their intervals. Each is safe to run in many processes at once (SKIP LOCKED claims
 * or a try-lock), so none depends on which processes are alive: what one leaves, another does.
 */
export const CHORES: { name: string; everyMs: number; run: () => Promise<unknown> }[] = [
  // Parked status webhooks (lib/delivery/parked-statuses.ts): a status waiting for a worker's
  // commit is applied about a second after it.
  { name: "parked statuses", everyMs: 1000, run: () => applyParkedStatuses() },
  // message_stats deltas folded into the rollup (reads add the unfolded ones, so this only keeps
  // them few).
  { name: "message_stats fold", everyMs: 1000, run: foldMessageStatsDeltas },
  // Likewise the reports' message counts per day (lib/reports/repo.ts).
  { name: "report messages fold", everyMs: 1000, run: foldReportMessageDeltas },
  // And their time histograms and openings (lib/reports/buckets.ts).
  { name: "report histograms fold", everyMs: 1000, run: foldReportHistogramDeltas },
  // The event log past its retention (EVENTS_RETENTION_HOURS), in batches.
  { name: "events prune", everyMs: 10 * 60_000, run: pruneEvents },
];

/**
 * Starts every chore on its interval (a run never overlaps the previous run of the same chore,
 * and a failure is logged by name and code, never with data). Returns the stop.
 */
export function startChores(chores = CHORES): () => void {
  const timers = chores.map((chore) => {
    let running = false;
    const timer = setInterval(() => {
      if (running) return;
      running = true;
      chore
        .run()
        .catch((err) => console.error(`[chores] ${chore.name} failed (${(err as { code?: string })?.code ?? "error"})`))
        .finally(() => (running = false));
    }, chore.everyMs);
    timer.unref();
    return timer;
  });
  return () => timers.forEach(clearInterval);
}
