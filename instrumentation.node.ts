import { runMigrations } from "@/db/migrate";
import { getHandle } from "@/db/client";
import { checkSettings, config, InvalidSettingsError } from "@/lib/config";
import { ensureDemoData } from "@/lib/seed/startup";
import { startWorker } from "@/lib/delivery/runtime";
import { startChores } from "@/lib/chores/schedule";
import { trackHttpRequests } from "@/lib/shutdown/http-drain";
import { installGracefulShutdown } from "@/lib/shutdown/graceful";
import { startWebhookFastLane } from "@/lib/meta-webhooks/fast-lane";
import { startRequestLineGuard } from "@/lib/http/request-line-guard";
import { limitHttpConnections } from "@/lib/http/connection-limits";

/**
 * What one `next start` (or `next dev`) does before serving: apply migrations, load the demo
 * team into an empty database and print its token, and run the delivery worker in-process
 * (WORKER_IN_PROCESS=0 turns that off when workers run as their own processes).
 */
export async function startServerProcess() {
  // Settings first, before anything connects or writes. Next only logs an error thrown from
  // register() and goes on serving, so a bad setting ends the process itself: fail closed.
  try {
    checkSettings();
  } catch (err) {
    console.error(err instanceof InvalidSettingsError ? err.message : err);
    process.exit(1);
  }
  // First: the drain must know of the requests in flight (one that arrived while the server was
  // starting is held by Next until register() ends, but Node announced it before this ran).
  trackHttpRequests();
  // Timeouts in seconds, and no body read past an answer given without it (an endless upload).
  limitHttpConnections(() => config.httpLimits);
  // Meta's webhook posts answered before Next's pipeline, on `next start` only (`next dev` keeps
  // every request in Next, where its reloads reach the code).
  if (config.webhookFastLane && process.env.NODE_ENV !== "development") startWebhookFastLane();
  // Proxy-form targets (400) and methods Next does not route (405), answered before everything
  // else on the server, the fast lane included (lib/http/request-line-guard.ts).
  startRequestLineGuard();
  const handle = await getHandle();
  await runMigrations();
  if (config.seedDemo) {
    const demo = await ensureDemoData();
    // A laptop gets the token on screen; a production log never carries a token, only where it is.
    if (config.production) console.log(`[demo] team ${demo.team_id}; API token saved in ${demo.tokenFile}`);
    else console.log(`[demo] team ${demo.team_id}; API token: ${demo.token}  (also in ${demo.tokenFile})`);
  }
  const stopChores = startChores();
  const worker = config.workerInProcess ? startWorker() : undefined;
  if (process.env.NODE_ENV === "development") {
    // `next dev` keeps its own handler (it also stops the bundler); the worker just gives its claims back.
    const stop = () => void worker?.stop();
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  } else {
    // The chores stop with the worker: nothing new is claimed once the drain has begun.
    installGracefulShutdown({
      timeoutS: config.shutdownTimeoutS,
      // Awaited before the pool closes: a chore's run in progress ends before its connection does.
      stopWorker: async () => {
        await Promise.all([stopChores(), worker?.stop()]);
      },
    });
  }
  console.log(`[db] ${handle.kind === "pglite" ? `embedded PGlite at ${config.pgliteDir}` : "PostgreSQL (DATABASE_URL)"}`);
}
