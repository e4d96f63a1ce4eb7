import { describe, expect, it } from "vitest";
import { ALL_IDS, HistoryIdRanges, idRangeFor, type IdRange, type PartitionBounds } from "@/lib/messages/history-bounds";

/** The window-to-ids arithmetic and the retry around a stale range (lib/messages/history-bounds.ts), without a database. */
const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
const bounds: PartitionBounds[] = [
  { lo: -2147483648, hi: 1000, minCreatedAt: day("2025-01-01"), maxCreatedAt: day("2025-10-01") },
  { lo: 1000, hi: 2000, minCreatedAt: day("2025-10-01"), maxCreatedAt: day("2025-11-02") },
  { lo: 2000, hi: 3000, minCreatedAt: day("2025-11-01"), maxCreatedAt: day("2025-12-01") },
  { lo: 3000, hi: 4000, minCreatedAt: null, maxCreatedAt: null },
  { lo: 4000, hi: 2147483648, minCreatedAt: null, maxCreatedAt: null },
];

describe("history id ranges", () => {
  it("takes every partition whose created_at bounds meet the window, widened by any time zone's offset", () => {
    expect(idRangeFor(bounds, { from: "2025-11-10 00:00:00", toExclusive: "2025-11-20 00:00:00" })).toEqual({ lo: 2000, hi: 2999 });
    // A day from the edge of a partition's bounds: the zone slack takes the neighbour too.
    expect(idRangeFor(bounds, { from: "2025-11-02 12:00:00", toExclusive: "2025-11-03 00:00:00" })).toEqual({ lo: 1000, hi: 2999 });
    // Open windows reach every partition above; empty partitions (no bounds) add nothing.
    expect(idRangeFor(bounds, { from: "2025-05-01 00:00:00", toExclusive: null })).toEqual({ lo: -2147483648, hi: 2999 });
    // A window no partition meets still reads one partition, so its statement runs and checks.
    expect(idRangeFor(bounds, { from: "2027-01-01 00:00:00", toExclusive: "2027-01-02 00:00:00" })).toEqual({
      lo: -2147483648,
      hi: -2147483648,
    });
  });

  it("asks again with fresh bounds when the statement says its range is stale, then over every id", async () => {
    const stale = Object.assign(new Error("stale"), { code: "MH001" });
    const ranges = new HistoryIdRanges((err) => (err as { code?: string }).code === "MH001");
    let loads = 0;
    const load = async () => (loads++, bounds);
    const seen: IdRange[] = [];
    const window = { from: "2025-11-10 00:00:00", toExclusive: "2025-11-20 00:00:00" };
    expect(await ranges.run(load, window, async (ids) => (seen.push(ids), "ok"))).toBe("ok");
    // Cached: the next page reads no bounds.
    await ranges.run(load, window, async () => "ok");
    expect(loads).toBe(1);
    seen.length = 0;
    const out = await ranges.run(load, window, async (ids) => {
      seen.push(ids);
      if (seen.length < 3) throw stale;
      return "ok";
    });
    expect(out).toBe("ok");
    expect(loads).toBe(2);
    expect(seen).toEqual([{ lo: 2000, hi: 2999 }, { lo: 2000, hi: 2999 }, ALL_IDS]);
    // Any other error is the caller's.
    await expect(ranges.run(load, window, async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
  });
});
