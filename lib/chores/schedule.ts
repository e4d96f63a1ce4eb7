import { pruneEvents } from "@/lib/events/prune";
import { maintainMessages } from "@/lib/messages/partitions";
import { applyParkedStatuses } from "@/lib/delivery/parked-statuses";
import { foldMessageStats } from "@/lib/messages/stats-service";
import { foldReportHistogramDeltas, foldReportMessageDeltas } from "@/lib/reports/fold";
import { sweepBroadcasts } from "@/lib/broadcasts/lifecycle";
import { PROGRESS_EVERY_MS } from "@/lib/broadcasts/announce";
import { resumeInterrupted } from "@/lib/broadcasts/enqueue";
import { pruneAudit } from "@/lib/audit/service";
import { syncDueTemplates } from "@/lib/templates/sync-service";
import { approveDueSandboxTemplates } from "@/lib/templates/editor-service";

export type Chore = {
  name: string;
  everyMs: number;
  /** Also runs once as soon as the schedule starts (a takeover after a restart should not wait). */
  atStart?: boolean;
  run: () => Promise<unknown>;
};

/**
 * The periodic chores every process runs (each web process and each `npm run worker`): one
 * table with their intervals. Each is safe to run in many processes at once (SKIP LOCKED claims
 * or a try-lock), so none depends on which processes are alive: what one leaves, another does.
 */
export const CHORES: Chore[] = [
  // Parked status webhooks (lib/delivery/parked-statuses.ts): a status waiting for a worker's
  // commit is applied about a second after it.
  { name: "parked statuses", everyMs: 1000, run: () => applyParkedStatuses() },
  // message_stats deltas folded into the rollup (reads add the unfolded ones, so this only keeps
  // them few).
  { name: "message_stats fold", everyMs: 1000, run: foldMessageStats },
  // Likewise the reports' message counts per day (lib/reports/repo.ts).
  { name: "report messages fold", everyMs: 1000, run: foldReportMessageDeltas },
  // And their time histograms and openings (lib/reports/buckets.ts).
  { name: "report histograms fold", everyMs: 1000, run: foldReportHistogramDeltas },
  // The event log's daily partitions: the coming week's made, those past the retention
  // (EVENTS_RETENTION_HOURS) dropped (lib/events/prune.ts). At start too, so a fresh database
  // has today's partition before its first write lands in the default one.
  { name: "events partitions and prune", everyMs: 10 * 60_000, atStart: true, run: pruneEvents },
  // The monthly partitions of messages: made ahead, the sequence moved to a new month's, and those
  // past MESSAGES_RETENTION_MONTHS dropped (lib/messages/partitions.ts). At start too, so a month
  // that began while no process ran draws its ids from its own partition from the first run on.
  { name: "messages partitions", everyMs: 10 * 60_000, atStart: true, run: () => maintainMessages() },
  // The audit trail's rows past AUDIT_RETENTION_DAYS (lib/audit/service.ts).
  { name: "audit retention", everyMs: 60 * 60_000, atStart: true, run: () => pruneAudit() },
];

/**
 * The chores of a delivery worker (lib/delivery/worker.ts), run while it runs. They take the
 * worker's teams (a dedicated worker for a large tenant, or a test's worker on a shared database)
 * and its own settings, so they are a table per worker rather than rows of CHORES.
 */
export function workerChores(w: {
  teamIds?: number[];
  walkSweepMs: number;
  resumeWalks: (teamIds?: number[]) => Promise<unknown>;
}): Chore[] {
  return [
    // Broadcasts' due transitions and progress events (lib/broadcasts/lifecycle.ts).
    { name: "broadcasts sweep", everyMs: PROGRESS_EVERY_MS, atStart: true, run: () => sweepBroadcasts(w.teamIds) },
    // Broadcast enqueues a crash interrupted (one can take a while, so not every second).
    { name: "broadcast enqueue resume", everyMs: 10_000, atStart: true, run: () => resumeInterrupted(w.teamIds) },
    // In-process status walks (the sandbox's) a restart stopped: taken over at start, then every walkSweepMs.
    { name: "status walks takeover", everyMs: w.walkSweepMs, atStart: true, run: () => w.resumeWalks(w.teamIds) },
    // Each business account's templates synced with Meta's list every TEMPLATE_SYNC_INTERVAL_MIN
    // (lib/templates/sync-service.ts): a claim per account, so one worker of many does it.
    { name: "template sync", everyMs: 60_000, atStart: true, run: () => syncDueTemplates(w.teamIds) },
    // Templates submitted for a sandbox number, approved SANDBOX_TEMPLATE_REVIEW_MS after their
    // submission as Meta's status webhook would (lib/templates/editor-service.ts). The PENDING row
    // is the state, so a restart loses no review; every second, so a short review is seen soon.
    { name: "sandbox template review", everyMs: 1000, atStart: true, run: () => approveDueSandboxTemplates(w.teamIds) },
  ];
}

/**
 * Starts every chore on its interval (a run never overlaps the previous run of the same chore,
 * and a failure is logged by name and code, never with data). Returns the stop, which resolves
 * once the runs in progress have ended; a crash simulation simply does not wait for it.
 */
export function startChores(chores: Chore[] = CHORES): () => Promise<void> {
  let stopped = false;
  const runs = chores.map((chore) => {
    let running: Promise<void> | null = null;
    const tick = () => {
      if (running || stopped) return;
      running = chore
        .run()
        .then(() => undefined)
        .catch((err) => console.error(`[chores] ${chore.name} failed (${(err as { code?: string })?.code ?? "error"})`))
        .finally(() => (running = null));
    };
    const timer = setInterval(tick, chore.everyMs);
    timer.unref();
    if (chore.atStart) tick();
    return { timer, running: () => running };
  });
  return async () => {
    stopped = true;
    runs.forEach((r) => clearInterval(r.timer));
    await Promise.all(runs.map((r) => r.running()));
  };
}
