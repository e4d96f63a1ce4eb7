import autocannon, { type Options, type Result } from "autocannon";
import { cpuMs, memorySampler } from "./processes";

export type Measure = {
  scenario: string;
  target: "app" | "empty" | "floor" | "cluster" | "rate-limit" | "worker" | "db";
  connections: number | null;
  /** Successful (2xx) answers per second; for round trips and bulk sends, see `unit`. */
  throughput: number;
  unit: string;
  durationSeconds: number;
  /** 2xx answers per second, whatever the unit: what the ratios to the baselines compare. */
  reqPerSec: number;
  /**
   * Server CPU (user + system, whole process tree) per answer, in ms. Unlike throughput it
   * barely depends on what else the machine runs, so it is the fairer measure of our own cost.
   */
  cpuMsPerReq: number | null;
  p50: number | null;
  p99: number | null;
  requests: number;
  errors: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  peakRssMb: number | null;
  peakTreeRssMb: number | null;
  /** The server's CPU (ms) over the measured load, for scenarios that divide it by their own unit. */
  serverCpuMs?: number;
  /**
   * `--replica` (bench/replica-mode.ts): what the database servers spent per answer of a load run
   * alone (CPU ms of the primary and replica clusters and of PgBouncer; transactions committed on
   * each database), or, for two loads run at once, each server's busy cores.
   */
  servers?: {
    perRequest?: { primaryCpuMs: number; replicaCpuMs: number; poolerCpuMs: number; primaryTx: number; replicaTx: number };
    busyCores?: { primary: number; replica: number; pooler: number };
    maxReplayLagMs: number;
  };
  /** `--replica`: a load run beside another, against the same load alone. */
  together?: { throughputAlone: number; p99Alone: number | null; lostPct: number; p99GrowthPct: number };
  note?: string;
  available: boolean;
};

/**
 * `--warmup=N`: seconds of the same load before each measured one (default 5). Two were too few:
 * a fresh `next start` still compiles the route's code under the first seconds of load, and
 * measured 113 vs 245 req/s (heavy history, 1 connection) with 2 s vs 6 s of warm-up.
 */
const defaultWarmupSeconds = () => Number(process.argv.find((a) => a.startsWith("--warmup="))?.split("=")[1] ?? 5);

export const mb = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;

/**
 * Runs one autocannon load against a server and samples the server's memory meanwhile.
 * A first answer of 404/405 means the endpoint has not landed: the scenario is reported as
 * "not available" instead of measured.
 */
export async function load(
  opts: Options & {
    scenario: string;
    target: Measure["target"];
    serverPid: number;
    unit?: string;
    perRequest?: number;
    warmupSeconds?: number;
    probe?: () => Promise<number>;
    /** Called (and awaited) between the warm-up and the measured run (to reset counters kept by the caller). */
    onMeasureStart?: () => void | Promise<void>;
  },
): Promise<Measure> {
  const base: Measure = {
    scenario: opts.scenario,
    target: opts.target,
    connections: opts.connections ?? 10,
    throughput: 0,
    unit: opts.unit ?? "req/s",
    reqPerSec: 0,
    durationSeconds: 0,
    cpuMsPerReq: null,
    p50: null,
    p99: null,
    requests: 0,
    errors: 0,
    non2xx: 0,
    statusCodes: {},
    peakRssMb: null,
    peakTreeRssMb: null,
    available: true,
  };
  if (opts.probe) {
    const status = await opts.probe();
    if (status === 404 || status === 405) return { ...base, available: false, note: `endpoint answered ${status}: not available` };
  }
  const {
    scenario: _s,
    target: _t,
    serverPid,
    unit: _u,
    perRequest = 1,
    warmupSeconds = defaultWarmupSeconds(),
    probe: _p,
    onMeasureStart,
    ...cannon
  } = opts;
  // A short warm-up lets the JIT and the connection pools settle so the measure is steady state.
  if (warmupSeconds > 0) await autocannon({ ...cannon, duration: warmupSeconds });
  await onMeasureStart?.();
  const mem = memorySampler(serverPid);
  const cpu0 = cpuMs(serverPid);
  const result: Result = await autocannon(cannon);
  const cpu = cpuMs(serverPid) - cpu0;
  const m = mem.stop();
  const ok = result["2xx"];
  const statusCodes: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = Number(count);
  return {
    ...base,
    throughput: Math.round((ok * perRequest) / result.duration),
    reqPerSec: Math.round(ok / result.duration),
    durationSeconds: result.duration,
    cpuMsPerReq: ok + result.non2xx ? Math.round((cpu / (ok + result.non2xx)) * 100) / 100 : null,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: ok + result.non2xx,
    errors: result.errors,
    non2xx: result.non2xx,
    statusCodes,
    peakRssMb: mb(m.peakProcessRss),
    peakTreeRssMb: mb(m.peakTreeRss),
    serverCpuMs: cpu,
  };
}

/** A row for a scenario that could not run here, with the reason. */
export function unavailable(scenario: string, target: Measure["target"], connections: number | null, note: string): Measure {
  return {
    scenario,
    target,
    connections,
    throughput: 0,
    unit: "req/s",
    reqPerSec: 0,
    durationSeconds: 0,
    cpuMsPerReq: null,
    p50: null,
    p99: null,
    requests: 0,
    errors: 0,
    non2xx: 0,
    statusCodes: {},
    peakRssMb: null,
    peakTreeRssMb: null,
    available: false,
    note,
  };
}
