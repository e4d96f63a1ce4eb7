import { getDb } from "@/db/client";
import { withSecrets } from "@/lib/channels/credentials";
import { adapterFor, walkingProviders } from "./channels";
import { claimStoppedWalks, findNumbersByIds } from "./repo";
import { applyStatusUpdates } from "./status";

/**
 * In-process status walks (the sandbox's) live in timers: a crash or restart stops them. Walks
 * with no step for a while are taken over here (leased, so by one worker), each from the status
 * it reached. The worker's chore "status walks takeover" (lib/chores/schedule.ts). Returns how
 * many were resumed.
 */
export async function resumeWalks(o: { sandboxStepMs: number; killed: () => boolean }, teamIds?: number[]): Promise<number> {
  const staleMs = 3 * o.sandboxStepMs + 2000;
  const db = await getDb();
  const stopped = await claimStoppedWalks(db, { providers: walkingProviders, limit: 1000, staleMs, leaseMs: staleMs, teamIds });
  if (!stopped.length || o.killed()) return 0;
  const numbers = new Map((await findNumbersByIds(db, [...new Set(stopped.map((w) => w.waNumberId))])).map((n) => [n.id, withSecrets(n)]));
  let resumed = 0;
  for (const w of stopped) {
    const number = numbers.get(w.waNumberId);
    const adapter = number && adapterFor(number.provider);
    if (!number || !adapter?.afterAccepted) continue;
    adapter.afterAccepted(number, w.providerMessageId, { report: applyStatusUpdates, stepMs: o.sandboxStepMs, reached: w.status });
    resumed++;
  }
  return resumed;
}
