import { createWorker, type Worker, type WorkerOptions } from "@/lib/delivery/worker";

/**
 * The delivery workers one test file starts. `start` creates a worker with the file's `defaults`
 * and the given options (which win) and starts it; `stopAll`, called from the file's afterAll
 * before it closes its servers, stops every one, also those a failed test left running.
 */
export function workerPool(defaults: WorkerOptions = {}) {
  const started: Worker[] = [];
  return {
    start(opts: WorkerOptions = {}): Worker {
      const w = createWorker({ ...defaults, ...opts });
      started.push(w);
      w.start();
      return w;
    },
    stopAll: () => Promise.all(started.map((w) => w.stop())),
  };
}
