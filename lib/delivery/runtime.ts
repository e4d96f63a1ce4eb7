import { createWorker, type WorkerOptions } from "./worker";
import { deliveryConfig } from "./config";

const g = globalThis as unknown as { __waWorker?: { stop(): Promise<void> } };

/**
 * Starts the delivery worker in this process. The web server calls it from
 * instrumentation.node.ts (unless WORKER_IN_PROCESS=0); `npm run worker` runs it standalone.
 * Any number of processes may run it against one Postgres: claims never overlap. One per
 * process: a second call (dev reloads modules) returns the running one.
 */
export function startWorker(opts: WorkerOptions = {}): { stop(): Promise<void> } {
  if (g.__waWorker) return g.__waWorker;
  const worker = createWorker({ concurrency: deliveryConfig.concurrency, ...opts });
  worker.start();
  const handle = {
    stop: async () => {
      if (g.__waWorker === handle) g.__waWorker = undefined;
      await worker.stop();
    },
  };
  g.__waWorker = handle;
  return handle;
}
