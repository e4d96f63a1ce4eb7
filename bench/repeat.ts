import type { Measure } from "./load";

/**
 * `--repeat=N`: one p99 per read moved by ±10–25 % between readings of the same set minutes apart
 * on this machine kind (bench/log/2026-11-28-50m-sixth-run.md), more than the 50 M target's 20 %
 * allowance. So the reads it compares are measured N times, in rounds (every read once,
 * then every read again), and the reading with the median p99 is what the table shows and the
 * 50 M summary judges. Rounds rather than N loads of one read back to back, so a slow minute of
 * the machine touches one reading of every read instead of every reading of one.
 */
export const repeatCount = (argv: string[]): number => {
  const raw = argv.find((a) => a.startsWith("--repeat="))?.split("=")[1];
  if (raw === undefined) return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 15) throw new Error(`--repeat must be a whole number from 1 to 15 (got "${raw}")`);
  return n;
};

const key = (m: Measure) => `${m.scenario}|${m.target}|${m.connections}`;

/** The middle of an odd count; of an even count, the higher of the two middle ones (the cautious pick). */
export function medianBy<T>(items: T[], value: (item: T) => number): T {
  const sorted = [...items].sort((a, b) => value(a) - value(b));
  return sorted[Math.floor(sorted.length / 2)];
}

/**
 * Each measure of `first` that later rounds measured again is replaced by its reading with the
 * median p99 (the whole reading, so its throughput and CPU belong to the same load), noting
 * every reading's p99. Measures no later round repeated are left as they are.
 */
export function medianReadings(first: Measure[], later: Measure[][]): Measure[] {
  const again = new Map<string, Measure[]>();
  for (const round of later) for (const m of round) if (m.available && m.p99 !== null) again.set(key(m), [...(again.get(key(m)) ?? []), m]);
  return first.map((m) => {
    const more = again.get(key(m));
    if (!more || !m.available || m.p99 === null) return m;
    const readings = [m, ...more];
    const median = medianBy(readings, (r) => r.p99!);
    const p99s = readings.map((r) => r.p99).join(", ");
    const note = `median p99 of ${readings.length} readings (${p99s} ms)`;
    return { ...median, note: median.note ? `${median.note}; ${note}` : note };
  });
}
