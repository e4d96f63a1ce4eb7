import { runMigrations } from "@/db/migrate";
import { getHandle } from "@/db/client";
import { assertValidConfig, config } from "@/lib/config";
import { ensureDemoData } from "@/lib/seed/startup";
import { startWorker } from "@/lib/delivery/runtime";

/**
 * What one `next start` (or `next dev`) does before serving: apply migrations, load the demo
 * team into an empty database and print its token, and run the delivery worker in-process
 * (WORKER_IN_PROCESS=0 turns that off when workers run as their own processes).
 */
export async function startServerProcess() {
  assertValidConfig();
  const handle = await getHandle();
  await runMigrations();
  if (config.seedDemo) {
    const demo = await ensureDemoData();
    console.log(`[demo] team ${demo.team_id}; API token: ${demo.token}  (also in ${demo.tokenFile})`);
  }
  if (process.env.WORKER_IN_PROCESS !== "0") {
    const worker = startWorker();
    const stop = () => void worker.stop().finally(() => process.exit(0));
    process.once("SIGTERM", stop);
    process.once("SIGINT", stop);
  }
  console.log(`[db] ${handle.kind === "pglite" ? `embedded PGlite at ${config.pgliteDir}` : "PostgreSQL (DATABASE_URL)"}`);
}
