import type { Measure } from "./load";

export type Row = Measure & { vsEmpty: number | null; vsFloor: number | null };

const ratio = (a: number, b: number | undefined) => (b ? Math.round((a / b) * 100) / 100 : null);

/**
 * app ÷ empty route (our own cost over the framework) for every app row, compared at the same
 * connection count and in requests per second; app ÷ floor (the framework's cost) for the history
 * rows, against the bare server's same customer kind, and for the template send.
 */
export function withRatios(results: Measure[]): Row[] {
  const empty = new Map<number | null, number>();
  for (const m of results) if (m.available && m.target === "empty") empty.set(m.connections, m.reqPerSec);
  const clusterEmpty = new Map<number | null, number>();
  for (const m of results)
    if (m.available && m.target === "cluster" && m.scenario === "empty route") clusterEmpty.set(m.connections, m.reqPerSec);
  const floor = new Map<string, number>();
  for (const m of results) if (m.available && m.target === "floor") floor.set(`${m.scenario}|${m.connections}`, m.reqPerSec);
  return results.map((m) => {
    if (!m.available || m.target === "empty" || m.target === "floor" || m.target === "worker" || m.target === "db")
      return { ...m, vsEmpty: null, vsFloor: null };
    const base = m.target === "cluster" ? clusterEmpty : empty;
    return {
      ...m,
      vsEmpty: m.scenario === "empty route" ? null : ratio(m.reqPerSec, base.get(m.connections)),
      vsFloor:
        m.scenario.startsWith("history") || m.scenario === "template send"
          ? ratio(m.reqPerSec, floor.get(`${m.scenario.replace(/ \(.*\)$/, "")}|${m.connections}`))
          : null,
    };
  });
}

const cell = (v: unknown) => (v === null || v === undefined ? "–" : String(v));

export function tableLines(rows: Row[]): string[] {
  const head = [
    "scenario",
    "target",
    "conns",
    "throughput",
    "p50 ms",
    "p99 ms",
    "errors",
    "non-2xx",
    "CPU ms/req",
    "peak RSS MB",
    "÷ empty",
    "÷ floor",
  ];
  const body = rows.map((r) =>
    r.available
      ? [
          r.scenario,
          r.target,
          cell(r.connections),
          `${r.throughput} ${r.unit}`,
          cell(r.p50),
          cell(r.p99),
          cell(r.errors),
          cell(r.non2xx),
          cell(r.cpuMsPerReq),
          cell(r.peakRssMb),
          cell(r.vsEmpty),
          cell(r.vsFloor),
        ]
      : [r.scenario, r.target, cell(r.connections), `not available: ${r.note}`, "", "", "", "", "", "", "", ""],
  );
  const lines = [head, head.map(() => "---"), ...body].map((cols) => `| ${cols.join(" | ")} |`);
  const notes = rows.filter((r) => r.available && r.note).map((r) => `- ${r.scenario} [${r.target}] × ${r.connections}: ${r.note}`);
  return notes.length ? [...lines, "", ...notes] : lines;
}

export function printTable(rows: Row[]): void {
  console.log("\n" + tableLines(rows).join("\n"));
}
