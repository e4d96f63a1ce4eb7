import { closeDb } from "@/db/client";
import { runMigrations } from "@/db/migrate";
import { startWorker } from "@/lib/delivery/runtime";
import { startChores } from "@/lib/chores/schedule";
import { checkSettings, config } from "@/lib/config";

/**
 * `npm run worker`: a standalone delivery worker for scale-out (WORKER_IN_PROCESS=0 on the web
 * replicas, then as many of these as needed on the same DATABASE_URL). SIGTERM/SIGINT stop it
 * gracefully: no new claims, sends in flight finish, waiting claims are given back.
 */
async function main() {
  checkSettings();
  if (!config.databaseUrl) {
    console.warn("[worker] DATABASE_URL is not set: using the embedded database, which only one process may open.");
  }
  await runMigrations();
  const worker = startWorker();
  const stopChores = startChores();
  console.log(`[worker] started (pid ${process.pid})`);
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`[worker] ${signal}: finishing sends in flight…`);
    // Both stop at once; the pool closes only once a chore's run in progress has ended too (one
    // cut off mid-statement by closeDb would log a failure and leave its work for the next start).
    await Promise.all([stopChores(), worker.stop()]);
    await closeDb();
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
}

main().catch((err) => {
  console.error("[worker] fatal", err);
  process.exit(1);
});
