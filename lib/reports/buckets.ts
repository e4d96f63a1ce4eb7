/**
 * The time buckets of the reports' histograms (report_histograms, db/functions/report_seconds_bucket.sql),
 * which let a median or 90th percentile over any range be read by adding up a few rows per day
 * instead of sorting every sample:
 * - below EXACT_BELOW seconds each whole second is its own bucket;
 * - from there on, STEPS_PER_DOUBLING buckets per doubling, bounded by the integers
 *   round(EXACT_BELOW · 2^(k/32)).
 * Each bucket keeps its sample count and the sum of their seconds, and reads back as their mean:
 * exact when a bucket holds one distinct time (always below EXACT_BELOW; in practice for small
 * teams and the tests' scripted days), and otherwise within MAX_RELATIVE_ERROR (2.19 %) of any
 * sample in it, since the mean and the sample are both inside the bucket.
 * Why so few exact seconds: measured on 75,000 first responses in 30 days (3 numbers, 6 agents,
 * times around 5 min), whole seconds exact up to 4,096 s left 69,500 histogram rows to read, hardly
 * fewer than the samples; this scheme leaves 8,700 for the team's whole days.
 * The bounds are integers computed once here and written out literally in the SQL function, so the
 * database and this file cannot disagree about a boundary (tests/api/reports-histograms.test.ts
 * checks every one).
 */
export const EXACT_BELOW = 64;
export const STEPS_PER_DOUBLING = 32;
/** Doublings from EXACT_BELOW to 2^31, past the largest integer a sample can hold. */
const DOUBLINGS = 25;

/** Lower bounds of the logarithmic buckets, BOUNDS[0] = EXACT_BELOW … BOUNDS[800] = 2^31. */
export const BOUNDS: readonly number[] = Array.from({ length: DOUBLINGS * STEPS_PER_DOUBLING + 1 }, (_, k) =>
  Math.round(EXACT_BELOW * 2 ** (k / STEPS_PER_DOUBLING)),
);

/** The widest bucket relative to its lower bound: how far its mean can be from a sample in it. */
export const MAX_RELATIVE_ERROR = Math.max(...BOUNDS.slice(0, -1).map((b, k) => (BOUNDS[k + 1] - 1 - b) / b));

/** The bucket of a sample of `seconds` (negative counts as 0): the second itself below EXACT_BELOW. */
export function bucketOf(seconds: number): number {
  const s = Math.max(0, Math.trunc(seconds));
  if (s < EXACT_BELOW) return s;
  let lo = 0;
  let hi = BOUNDS.length - 1;
  // The last bound at or below s (BOUNDS[0] <= s): what PostgreSQL's width_bucket finds.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (BOUNDS[mid] <= s) lo = mid;
    else hi = mid - 1;
  }
  return EXACT_BELOW + lo;
}

/** The bounds [from, to) of a bucket's samples. */
export function bucketRange(bucket: number): [number, number] {
  if (bucket < EXACT_BELOW) return [bucket, bucket + 1];
  const k = bucket - EXACT_BELOW;
  return [BOUNDS[k], BOUNDS[k + 1]];
}

/**
 * percentile_cont's interpolation between the samples at its two ranks p·(n − 1) floored and
 * ceiled, here the means of their buckets (null without samples).
 */
export function interpolate(p: number, n: number, lo: number | null, hi: number | null): number | null {
  if (!n || lo == null || hi == null) return null;
  const pos = p * (n - 1);
  return lo + (hi - lo) * (pos - Math.floor(pos));
}
