import { closeDb } from "@/db/client";
import { endOpenStreams } from "@/lib/events/open-streams";
import { flushRateLimits } from "@/lib/rate-limit/local-budget";
import { settleTokenTouches } from "@/lib/auth/token-usage";
import { finishRequests, inFlightCount, stopAccepting } from "./http-drain";

/** The EventSource reconnect delay written to open streams before they end. */
export const STREAM_RETRY_MS = 1_000;
/** Idle keep-alive connections are left to their clients this long before they are closed (http-drain.ts). */
export const IDLE_GRACE_MS = 1_500;

type Options = {
  /** Seconds before the process exits anyway (SHUTDOWN_TIMEOUT_S). */
  timeoutS: number;
  /** The in-process delivery worker's graceful stop, when it runs here. */
  stopWorker?: () => Promise<void>;
};

const log = (message: string) => console.log(`[shutdown] ${message}`);

/**
 * SIGTERM/SIGINT for `next start` (docs/operations.md, "Shutdown"). In parallel: the HTTP server
 * stops accepting connections and answers what is in flight (http-drain.ts), the open event
 * streams end with a retry hint, and the delivery worker stops claiming, lets its sends in flight
 * finish and gives back the claims still waiting. Then the rate-limit counts still held in this
 * process are sent, the database closes (PGlite writes its files out) and the process exits 0. If
 * that takes longer than `timeoutS` it exits 1 anyway: whatever was unfinished is what a crash
 * leaves, which the queue's leases already recover.
 *
 * Next 16's own handler (start-server.js, skipped when NEXT_MANUAL_SIG_HANDLE is set) is not
 * enough: it closes idle keep-alive connections at once (a client's next request may already be
 * on its way), waits without a deadline for connections that never end (event streams), knows
 * nothing of the worker, and exits 143.
 */
export function installGracefulShutdown({ timeoutS, stopWorker }: Options) {
  takeOverFromNext();
  let started = false;
  const onSignal = (signal: NodeJS.Signals) => {
    // A second signal is common (the shell and npm both forward Ctrl+C): the drain is already on.
    if (started) return;
    started = true;
    void shutdown(signal);
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);

  async function shutdown(signal: NodeJS.Signals) {
    const began = Date.now();
    log(`${signal}: draining (deadline ${timeoutS} s)`);
    // Not unref'd: this timer is what ends a drain that hangs.
    setTimeout(() => {
      log(`deadline of ${timeoutS} s passed with ${inFlightCount()} requests in flight: exiting anyway`);
      process.exit(1);
    }, timeoutS * 1000);

    const worker = stopWorker?.();
    // The backlog gets at most a third of the deadline: the requests still have to be answered.
    const http = stopAccepting({ backlogWaitMs: Math.min(10_000, (timeoutS * 1000) / 3) }).then(async ({ closed, waited }) => {
      // Streams end once the port is closed: the reconnect their retry hint asks for must be
      // refused here (and go to another replica), not be accepted and cut.
      const streams = endOpenStreams(STREAM_RETRY_MS);
      log(
        `no longer accepting (after ${waited} ms); ${inFlightCount()} requests in flight, ${streams} event streams ended with retry: ${STREAM_RETRY_MS}`,
      );
      await finishRequests({ closed, idleGraceMs: IDLE_GRACE_MS });
    });
    const results = await Promise.allSettled([http, worker]);
    for (const r of results) if (r.status === "rejected") console.error("[shutdown]", r.reason);
    try {
      // The requests are answered: what they counted against their budgets and this process has
      // not yet sent to the shared count goes now (lib/rate-limit/local-budget.ts).
      // So are the tokens' last uses noted after their answers (lib/auth/token-usage.ts).
      await Promise.all([flushRateLimits(), settleTokenTouches()]);
    } catch (err) {
      console.error("[shutdown] flushing the rate-limit counts", err);
    }
    try {
      await closeDb();
    } catch (err) {
      console.error("[shutdown] closing the database", err);
    }
    log(`done in ${Date.now() - began} ms`);
    process.exit(results.some((r) => r.status === "rejected") ? 1 : 0);
  }
}

/**
 * `npm start` sets NEXT_MANUAL_SIG_HANDLE=1 so that Next installs no signal handlers. Started
 * some other way (`npx next start`), Next has installed them before this runs; its handler would
 * exit 143 in the middle of our drain, so it is removed. It is found by its name in Next 16's
 * start-server.js, `cleanup`; should a later Next rename it, both run and the start-up log says so.
 */
function takeOverFromNext() {
  if (process.env.NEXT_MANUAL_SIG_HANDLE) return;
  let removed = 0;
  for (const signal of ["SIGTERM", "SIGINT"] as const) {
    for (const listener of process.listeners(signal)) {
      if (listener.name !== "cleanup") continue;
      process.off(signal, listener);
      removed++;
    }
  }
  if (!removed) log("NEXT_MANUAL_SIG_HANDLE is not set and Next's signal handler was not found: set it so only this drain runs");
}
