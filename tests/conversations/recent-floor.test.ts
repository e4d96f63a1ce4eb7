import { describe, expect, it } from "vitest";
import { recentIdFloor } from "@/lib/conversations/recent-floor";
import { CachedBounds } from "@/lib/messages/history-bounds";

const DAY = 86_400_000;
const now = Date.parse("2026-11-29T12:00:00Z");
const part = (lo: number, hi: number, newestDaysAgo: number | null) => ({
  lo,
  hi,
  minCreatedAt: newestDaysAgo === null ? null : new Date(now - (newestDaysAgo + 30) * DAY),
  maxCreatedAt: newestDaysAgo === null ? null : new Date(now - newestDaysAgo * DAY),
});

describe("the conversation list's join floor", () => {
  it("starts at the first partition holding messages of the last 31 days; empty partitions above stay in", () => {
    const bounds = [part(-2147483648, 1, 400), part(1, 100, 45), part(100, 200, 20), part(200, 300, 0), part(300, 400, null)];
    expect(recentIdFloor(bounds, now)).toBe(100);
  });

  it("falls back to the newest partition with rows when none is recent, and to no floor when there is no message", () => {
    expect(recentIdFloor([part(-2147483648, 1, 400), part(1, 100, 90), part(100, 200, null)], now)).toBe(1);
    expect(recentIdFloor([part(-2147483648, 1, null), part(1, 100, null)], now)).toBe(-2147483648);
    expect(recentIdFloor([], now)).toBe(-2147483648);
  });

  it("is reckoned from bounds read once and kept for a minute, unless asked fresh", async () => {
    const cache = new CachedBounds();
    let reads = 0;
    const load = async () => {
      reads++;
      return [part(1, 100, 0)];
    };
    expect(recentIdFloor(await cache.get(load))).toBe(1);
    expect(recentIdFloor(await cache.get(load))).toBe(1);
    expect(reads).toBe(1);
    await cache.get(load, true);
    expect(reads).toBe(2);
  });
});
