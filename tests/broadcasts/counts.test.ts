import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { funnelOf, progressOf } from "@/lib/broadcasts/counts";
import { broadcastCounts, type BroadcastCounts } from "@/lib/broadcasts/schemas";

/** What the broadcast pages draw from a broadcast's counts (the funnel chart, the progress bars). */

/** Every count at 0, one per field of the API's counts. */
const zero = Object.fromEntries(Object.keys(broadcastCounts.shape).map((k) => [k, 0])) as BroadcastCounts;

describe("funnelOf", () => {
  it("sums each stage from the statuses at or past it, in the drawn order, failures beside", () => {
    const counts = { ...zero, recipients: 10, rejected: 1, queued: 2, sended: 1, sent: 1, delivered: 2, readed: 2, failed: 1, replied: 1 };
    expect(funnelOf(counts)).toEqual([
      { stage: "queued", value: 9 },
      { stage: "sent", value: 6 },
      { stage: "delivered", value: 4 },
      { stage: "read", value: 2 },
      { stage: "replied", value: 1 },
      { stage: "failed", value: 1 },
    ]);
  });

  it("never widens from one stage to the next (queued ≥ sent ≥ delivered ≥ read)", () => {
    const n = fc.nat({ max: 10_000 });
    const arb = fc.record({ queued: n, sended: n, sent: n, delivered: n, readed: n, failed: n, cancelled: n, replied: n });
    fc.assert(
      fc.property(arb, (c) => {
        const v = funnelOf({ ...zero, ...c }).map((bar) => bar.value);
        expect(v[0]).toBeGreaterThanOrEqual(v[1]);
        expect(v[1]).toBeGreaterThanOrEqual(v[2]);
        expect(v[2]).toBeGreaterThanOrEqual(v[3]);
      }),
    );
  });
});

describe("progressOf", () => {
  it("counts what left the queue, rounding the percentage down", () => {
    expect(progressOf({ ...zero, queued: 2, sent: 4, failed: 1 })).toEqual({ done: 5, total: 7, percent: 71 });
  });

  it("reads 0 % for a broadcast with no messages yet", () => {
    expect(progressOf(zero)).toEqual({ done: 0, total: 0, percent: 0 });
  });
});
