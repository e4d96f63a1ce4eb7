import http from "node:http";
import os from "node:os";
import path from "node:path";
import { unavailable, type Measure } from "./load";
import { ROOT, freePort, startProcess, stopChild } from "./processes";
import { emptyLoad, historyLoad, labelLoad, sendLoad, type ScenarioCtx } from "./scenarios";

/** Which process answers a fresh connection (the empty route names its pid). */
function servedBy(url: string): Promise<string | undefined> {
  return new Promise((resolve) => {
    http
      .get(url + "/api/bench/empty", { agent: false }, (res) => {
        res.resume();
        res.on("end", () => resolve(res.headers["x-served-by"] as string | undefined));
      })
      .on("error", () => resolve(undefined));
  });
}

/**
 * Scenario 6: `npm run start:cluster` (one Next server per core on one port) against the single
 * process, for the history, label and template send loads at 64 connections. First proves that several
 * processes really answer on the one port.
 */
export async function clusterScenarios(ctx: ScenarioCtx, env: Record<string, string>): Promise<Measure[]> {
  const port = await freePort();
  const cores = os.availableParallelism();
  let cluster;
  try {
    cluster = await startProcess("start:cluster", [path.join(ROOT, "scripts", "cluster.mjs"), "-p", String(port), "-H", "127.0.0.1"], {
      port,
      env: { ...env, SKIP_MIGRATIONS: "1", DELIVERY_WORKERS: "0", WEB_CONCURRENCY: String(cores) },
      readyPath: "/api/bench/empty",
    });
  } catch (err) {
    return [unavailable("history (cluster)", "cluster", 64, `cluster did not start: ${(err as Error).message.slice(0, 200)}`)];
  }
  try {
    // Every server must be up before the load, or the first seconds measure fewer processes.
    const pids = new Set<string>();
    const deadline = Date.now() + 60_000;
    while (pids.size < cores && Date.now() < deadline) {
      const pid = await servedBy(cluster.url);
      if (pid) pids.add(pid);
    }
    const note = `${pids.size} processes answered on port ${port} (${cores} cores)`;
    const out: Measure[] = [];
    out.push({ ...(await emptyLoad(ctx, cluster, 64, "cluster")), note });
    for (const kind of ["heavy", "ordinary"] as const) out.push(await historyLoad(ctx, cluster, "cluster", kind, 64));
    // The label target is a deployment's, not one process's: the label round trip is bound
    // by the web process, so it is measured here too, on every core.
    out.push(await labelLoad({ ...ctx, app: cluster }, 64, "cluster"));
    // The template send's target (≥ 1,000 sends/s) is a deployment's too.
    out.push(await sendLoad(ctx, 64, cluster, "cluster"));
    return out;
  } finally {
    await stopChild(cluster.child);
  }
}
