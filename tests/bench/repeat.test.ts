import { describe, expect, it } from "vitest";
import { unavailable, type Measure } from "@/bench/load";
import { medianBy, medianReadings, repeatCount } from "@/bench/repeat";

const reading = (scenario: string, p99: number, throughput: number, connections = 16): Measure => ({
  ...unavailable(scenario, "app", connections, ""),
  available: true,
  note: undefined,
  p99,
  throughput,
  reqPerSec: throughput,
});

describe("bench --repeat (the median of several readings)", () => {
  it("keeps the whole reading with the median p99 and notes every reading", () => {
    const first = [reading("history ordinary", 63, 500), reading("message stats", 40, 700), reading("history ordinary", 3, 300, 1)];
    const later = [
      [reading("history ordinary", 47, 620), reading("message stats", 44, 690)],
      [reading("history ordinary", 54, 560), reading("message stats", 38, 710)],
    ];
    const [ordinary, stats, atOne] = medianReadings(first, later);
    expect(ordinary).toMatchObject({ p99: 54, throughput: 560, note: "median p99 of 3 readings (63, 47, 54 ms)" });
    expect(stats).toMatchObject({ p99: 40, throughput: 700, note: "median p99 of 3 readings (40, 44, 38 ms)" });
    // Not measured again (1 connection): left as it was.
    expect(atOne).toEqual(first[2]);
  });

  it("takes the higher middle of an even count, the cautious pick", () => {
    expect(medianBy([10, 40, 20, 30], (x) => x)).toBe(30);
  });

  it("reads --repeat and refuses what is not a small whole number", () => {
    expect(repeatCount([])).toBe(1);
    expect(repeatCount(["--only=history", "--repeat=3"])).toBe(3);
    for (const bad of ["0", "2.5", "x", "99"]) expect(() => repeatCount([`--repeat=${bad}`])).toThrow(/--repeat/);
  });
});
