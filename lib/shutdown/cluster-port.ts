/**
 * Under `npm run start:cluster` the primary owns the port: a web process closing its server only
 * stops receiving connections, and the port stays open until the last one has closed. A web
 * process that told its clients to leave (`Connection: close`) before that would send them back
 * through the primary to another web process, or into the primary's queue, which Node closes when
 * the last web process leaves: a reset after the request was written. So each web process reports
 * that it closed its server and waits for the primary's word that all did (scripts/cluster.mjs)
 * before telling anyone to leave.
 */
export const LISTENER_CLOSED = "wa:listener-closed";
export const PORT_CLOSED = "wa:port-closed";

/** Resolves when the port is closed for every web process; at once outside the cluster. */
export function portClosedEverywhere(maxWaitMs: number): Promise<void> {
  // CLUSTER_SLOT is set by scripts/cluster.mjs for its web processes only.
  if (!process.send || process.env.CLUSTER_SLOT === undefined) return Promise.resolve();
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      process.off("message", onMessage);
      resolve();
    };
    const onMessage = (message: unknown) => {
      if (message === PORT_CLOSED) done();
    };
    // A primary that never answers (an older one) must not hold the drain: go on without it.
    const timer = setTimeout(done, maxWaitMs);
    process.on("message", onMessage);
    process.send!(LISTENER_CLOSED);
  });
}
