import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServer, type TestServer } from "../helpers/server";
import { apiClient } from "../helpers/client";
import { createWorld, type World } from "../helpers/hardening-world";
import { dateOutOfRange, daysInclusive, utcDayMs, utcDayText } from "@/lib/http/supported-dates";
import { STATS_DATE_INVALID } from "@/lib/messages/stats-schemas";
import { dateFormatMessage } from "@/lib/messages/history-schemas";
import { SCHEDULED_AT_INVALID } from "@/lib/broadcasts/schemas";
import { CURSOR_INVALID } from "@/lib/conversations/schemas";
import { REPORT_MAX_DAYS } from "@/lib/reports/schemas";

/**
 * Every date the API takes lies in 2000-01-01 .. 2100-12-31 (lib/http/supported-dates.ts). A
 * summary for 9999-12-31 used to walk its days forever (the day after it is "+010000-01-01",
 * which sorts before it as text) until the heap was gone; the stats and the history sent year
 * 9999 on to PostgreSQL (22009, a 500). Each endpoint that takes a date answers the extreme ones
 * with its 422 at once, and the days of a report are counted by date arithmetic.
 */
let server: TestServer;
let w: World;
let api: ReturnType<typeof apiClient>;
beforeAll(async () => {
  server = await startServer();
  w = await createWorld();
  api = apiClient(server.url, w.token);
  // The routes' modules loaded (the test server compiles them on their first request).
  for (const path of ["/api/v1/reports/summary", "/api/v1/reports/agents", "/api/v1/messages/stats", "/api/v1/messages/whatsapp/history"])
    await api.get(path);
});
afterAll(() => server.close());

/** Well-formed days outside the range: the range text. */
const OUT_OF_RANGE = ["9999-12-31", "0000-01-01", "1999-12-31", "2101-01-01", "1900-01-01"];
/** Not a `YYYY-MM-DD` day at all (five-digit year, signed years, no such day): the format text. */
const MALFORMED = ["10000-01-01", "+010000-01-01", "-000001-01-01", "2026-02-30", "9999-13-01"];

/** A request answered well within a second (the loop this replaced never answered). */
async function quick(path: string) {
  const started = performance.now();
  const res = await api.get(path);
  return { ...res, ms: performance.now() - started };
}

describe.each([
  ["/api/v1/reports/summary", "from", "to"],
  ["/api/v1/reports/agents", "from", "to"],
  ["/api/v1/messages/stats", "from", "to"],
] as const)("%s", (path, from, to) => {
  it.each(OUT_OF_RANGE)("%s as either end, or both, answers the range's 422", async (day) => {
    for (const query of [`${from}=${day}`, `${to}=${day}`, `${from}=${day}&${to}=${day}`]) {
      const res = await quick(`${path}?${query}`);
      expect(res.status, query).toBe(422);
      expect(res.ms, query).toBeLessThan(1000);
      const field = query.startsWith(to) ? to : from;
      expect(res.body, query).toEqual({
        message: dateOutOfRange(field),
        errors: expect.objectContaining({ [field]: [dateOutOfRange(field)] }),
      });
    }
  });

  it.each(MALFORMED)("%s answers the format's 422 (its text as before)", async (day) => {
    const res = await quick(`${path}?${from}=${encodeURIComponent(day)}`);
    expect(res.status).toBe(422);
    expect(res.body.errors[from]).toEqual([STATS_DATE_INVALID(from)]);
  });

  it("the range's own ends are accepted", async () => {
    for (const query of [
      `${from}=2000-01-01&${to}=2000-01-01`,
      `${from}=2100-12-31&${to}=2100-12-31`,
      `${from}=2100-01-01&${to}=2100-12-31`,
    ]) {
      expect((await api.get(`${path}?${query}`)).status, query).toBe(200);
    }
  });
});

describe("the summary's days", () => {
  it("GET /api/v1/reports/summary?from=9999-12-31&to=9999-12-31: 422 at once, the heap as it was", async () => {
    const url = "/api/v1/reports/summary?from=9999-12-31&to=9999-12-31";
    await api.get(url); // warm: the route's module loaded
    const before = process.memoryUsage().heapUsed;
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const res = await quick(url);
      expect(res.status).toBe(422);
      times.push(res.ms);
    }
    // The endless walk took 1.2 GB in 20 s; twenty refusals leave nothing behind worth a megabyte each.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(20 * 1024 * 1024);
    expect(Math.max(...times)).toBeLessThan(1000);
  });

  it("walks the days by arithmetic: a whole year in the last supported one, and a leap year", async () => {
    const y2100 = await api.get("/api/v1/reports/summary?from=2100-01-01&to=2100-12-31");
    expect(y2100.status).toBe(200);
    expect(y2100.body.data.days).toHaveLength(365); // 2100 is not a leap year
    expect(y2100.body.data.days.at(-1).day).toBe("2100-12-31");
    const y2000 = await api.get("/api/v1/reports/summary?from=2000-01-01&to=2000-12-31");
    expect(y2000.body.data.days).toHaveLength(366);
    expect(y2000.body.data.days.map((d: { day: string }) => d.day)).toContain("2000-02-29");
    // The ceiling across a year's end, and one day past it.
    expect(daysInclusive(utcDayMs("2099-12-31")!, utcDayMs("2100-12-31")!)).toBe(REPORT_MAX_DAYS);
    const longest = await api.get("/api/v1/reports/summary?from=2099-12-31&to=2100-12-31");
    expect(longest.body.data.days).toHaveLength(REPORT_MAX_DAYS);
    const tooLong = await api.get("/api/v1/reports/summary?from=2099-12-30&to=2100-12-31");
    expect(tooLong.status).toBe(422);
  });

  it("a from near the range's end without a to is refused, not walked to a default", async () => {
    const res = await api.get("/api/v1/reports/summary?from=2100-12-31");
    expect(res.status).toBe(422);
    expect(res.body.errors.to).toBeDefined();
  });

  it("day texts and instants agree over the whole range", () => {
    let ms = utcDayMs("2000-01-01")!;
    let n = 0;
    while (utcDayText(ms) !== "2101-01-01") {
      expect(utcDayMs(utcDayText(ms))).toBe(ms);
      ms += 86_400_000;
      n++;
    }
    expect(n).toBe(36_890);
    expect(utcDayMs("0000-01-01")).toBe(Date.UTC(2000, 0, 1) - 730_485 * 86_400_000);
    expect(utcDayMs("0099-02-29")).toBeNull();
  });
});

describe("GET /api/v1/messages/{channel}/history", () => {
  const base = () =>
    `/api/v1/messages/whatsapp/history?wa_number=${w.number.number}&customer_source=${encodeURIComponent(w.contact.customerNumber!)}`;

  it.each([...OUT_OF_RANGE, "9999-12-31 23:59:59", "0000-01-01 00:00:00"])(
    "from_date or to_date %s answers the range's 422",
    async (day) => {
      for (const [field, query] of [
        ["from_date", `from_date=${encodeURIComponent(day)}`],
        ["to_date", `from_date=2026-01-01&to_date=${encodeURIComponent(day)}`],
        ["from_date", `from_date=${encodeURIComponent(day)}&to_date=${encodeURIComponent(day)}`],
      ]) {
        const res = await quick(`${base()}&${query}`);
        expect(res.status, query).toBe(422);
        expect(res.ms, query).toBeLessThan(1000);
        expect(res.body.errors[field], query).toEqual([dateOutOfRange(field)]);
      }
    },
  );

  it.each(MALFORMED)("%s keeps the format's text", async (day) => {
    const res = await quick(`${base()}&from_date=${encodeURIComponent(day)}`);
    expect(res.status).toBe(422);
    expect(res.body.errors.from_date).toEqual([dateFormatMessage("from_date")]);
  });

  it("the last supported day is a whole day of history (its end is the exclusive 2101-01-01)", async () => {
    const res = await api.get(`${base()}&from_date=2100-12-31&to_date=2100-12-31`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
  });
});

describe("other dates", () => {
  const broadcast = (scheduled_at: string) => ({
    name: "Difusión",
    wa_number: w.number.number,
    template_name: w.template.name,
    header_param: { key: "1", value: "{{name}}" },
    body_params: [
      { key: "1", value: "A" },
      { key: "2", value: "lunes" },
    ],
    audience: { labels_any: [w.labels[0].id] },
    scheduled_at,
  });

  it.each(["9999-12-31T00:00:00Z", "0000-01-01T00:00:00Z", "1999-12-31T23:59:59Z", "2101-01-01T00:00:00Z", "2100-12-31T23:00:00-12:00"])(
    "a broadcast scheduled at %s answers the range's 422 and creates nothing",
    async (at) => {
      const res = await api.post("/api/v1/broadcasts", broadcast(at));
      expect(res.status).toBe(422);
      expect(res.body.errors.scheduled_at).toEqual([dateOutOfRange("scheduled_at")]);
    },
  );

  it("a schedule on a day that does not exist keeps the format's text", async () => {
    const res = await api.post("/api/v1/broadcasts", broadcast("2026-02-30T09:00:00Z"));
    expect(res.status).toBe(422);
    expect(res.body.errors.scheduled_at).toEqual([SCHEDULED_AT_INVALID]);
  });

  it.each(["9999-12-31T00:00:00.000000Z", "+010000-01-01T00:00:00.000Z", "0000-01-01T00:00:00Z"])(
    "a conversation cursor at %s is an invalid cursor, never a 500",
    async (at) => {
      const cursor = Buffer.from(JSON.stringify([at, 1])).toString("base64url");
      const res = await api.get(`/api/v1/conversations?cursor=${cursor}`);
      expect(res.status).toBe(422);
      expect(res.body.errors.cursor).toEqual([CURSOR_INVALID]);
    },
  );
});
