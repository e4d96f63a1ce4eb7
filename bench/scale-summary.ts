import fs from "node:fs";
import path from "node:path";
import type { BenchData } from "./dataset";
import { FULL } from "./dataset";
import type { Measure } from "./load";
import { ROOT } from "./processes";

/** The 50 M target's allowance: the 50 M set's reads keep the 5 M set's p99 within this share… */
const ALLOWED = 0.2;
/** …at this many connections. */
const COMPARED_AT = 16;

type Report = {
  date: string;
  mode: { database: string; repeat?: number };
  machine?: { cpus?: number; loadAvgAtReads?: number[] };
  dataset?: { sizes: { messages: number } };
  results: Measure[];
};

/**
 * The newest full (5 M) run on PostgreSQL in bench/results that read the history and the stats,
 * the 50 M run's reference; null when none. (A run of other scenarios is no reference: one that
 * measured the list after the bulk sends, say, measured it in another state.)
 */
function newestFullRun(): { file: string; report: Report } | null {
  const dir = path.join(ROOT, "bench", "results");
  if (!fs.existsSync(dir)) return null;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith(".json") && f !== "latest.json")
    .sort()
    .reverse();
  for (const f of files) {
    try {
      const report = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as Report;
      const read = (scenario: string) => report.results.some((m) => m.scenario.startsWith(scenario) && m.connections === COMPARED_AT);
      if (
        report.mode?.database === "postgres" &&
        report.dataset?.sizes.messages === FULL.messages &&
        read("history") &&
        read("message stats")
      )
        return { file: f, report };
    } catch {
      // A file cut short by an interrupted run is no reference: the next older one is read.
    }
  }
  return null;
}

const key = (m: Measure) => `${m.scenario}|${m.target}|${m.connections}`;

/**
 * The lines under a `--scale=50m` table: how long the set took to build, and each read's p99
 * against the same read of the newest 5 M run on this machine (`npm run bench -- --only=history,
 * conversations,stats --wait-quiet` makes one), with the 20 % allowance.
 */
export function scaleSummary(results: Measure[], data: BenchData | undefined, repeat = 1): string[] {
  const lines: string[] = [];
  if (data) {
    const total = Object.values(data.timings).reduce((a, b) => a + b, 0);
    const parts = Object.entries(data.timings)
      .map(([k, v]) => `${k} ${(v / 1000).toFixed(0)} s`)
      .join(", ");
    const set = `${data.sizes.messages.toLocaleString("en")} messages over ${data.sizes.days} days`;
    // --resume measured a kept set again: nothing was built.
    lines.push(
      parts ? `Built ${set} in ${(total / 60_000).toFixed(1)} min (${parts}).` : `Measured again: ${set}, kept from an earlier run.`,
    );
  }
  const ref = newestFullRun();
  if (!ref) {
    lines.push(
      "No 5 M run in bench/results to compare with: run `npm run bench -- --only=history,conversations,stats --wait-quiet` first.",
    );
    return lines;
  }
  const before = new Map(ref.report.results.filter((m) => m.available && m.p99 !== null).map((m) => [key(m), m]));
  lines.push(
    `p99 at ${COMPARED_AT} connections against the 5 M run of ${ref.report.date} (bench/results/${ref.file}), allowance +${ALLOWED * 100} %:`,
  );
  // A reference whose reads began while its own build still loaded the machine reads slower than
  // it should, and makes a 50 M run look better than it is (bench/log/2026-11-28-50m-fifth-run.md:
  // 58 ms for the ordinary page straight after the build, 41 ms with --wait-quiet).
  const busy = ref.report.machine?.loadAvgAtReads?.[0];
  const cpus = ref.report.machine?.cpus ?? 2;
  if (busy !== undefined && busy >= cpus / 2) {
    lines.push(
      `The reference's reads began at load average ${busy.toFixed(1)} (${cpus} cores): rerun it with --wait-quiet for a like-for-like comparison.`,
    );
  }
  // A median of several readings against one reading (or the other way round) compares a steady
  // figure with a noisy one: said, so the verdict is read with it.
  const refRepeat = ref.report.mode.repeat ?? 1;
  const readings = (n: number) => (n > 1 ? `the median of ${n} readings` : "one reading");
  lines.push(`Each p99 is ${readings(repeat)} here and ${readings(refRepeat)} in the reference (--repeat).`);
  if (refRepeat !== repeat)
    lines.push(`The two were read differently: rerun the reference with --repeat=${repeat} for a like-for-like comparison.`);
  let kept = 0;
  let compared = 0;
  // At 16 connections, as the issue compares: at 1 a p99 of 1–3 ms, in whole milliseconds, moves by
  // half its value from one run to the next.
  for (const m of results) {
    const old = before.get(key(m));
    if (m.connections !== COMPARED_AT || !m.available || m.p99 === null || !old || old.p99 === null) continue;
    compared++;
    const change = (m.p99 - old.p99) / old.p99;
    const ok = m.p99 <= old.p99 * (1 + ALLOWED);
    if (ok) kept++;
    lines.push(
      `  ${m.scenario} [${m.target}] × ${m.connections}: ${old.p99} → ${m.p99} ms (${change >= 0 ? "+" : ""}${Math.round(change * 100)} %) ${ok ? "kept" : "NOT kept"}`,
    );
  }
  lines.push(`${kept} of ${compared} reads kept their 5 M p99 within ${ALLOWED * 100} %.`);
  return lines;
}
