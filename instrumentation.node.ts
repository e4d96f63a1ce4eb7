import { runMigrations } from "@/db/migrate";
import { getHandle } from "@/db/client";
import { checkSettings, config, InvalidSettingsError } from "@/lib/config";
import { ensureDemoData } from "@/lib/seed/startup";
import { startWorker } from "@/lib/delivery/runtime";
import { startChores } from "@/lib/chores/schedule";

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
  const handle = await getHandle();
  await runMigrations();
  if (config.seedDemo) {
    const demo = await ensureDemoData();
    // A laptop gets the token on screen; a production log never carries a token, only where it is.
    if (config.production) console.log(`[demo] team ${demo.team_id}; API token saved in ${demo.tokenFile}`);
    else console.log(`[demo] team ${demo.team_id}; API token: ${demo.token}  (also in ${demo.tokenFile})`);
  }
  startChores();
  if (config.workerInProcess) {
    const worker = startWorker();
    const stop = () => void worker.stop().finally(() => process.exit(0));
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  }
  console.log(`[db] ${handle.kind === "pglite" ? `embedded PGlite at ${config.pgliteDir}` : "PostgreSQL (DATABASE_URL)"}`);
}
