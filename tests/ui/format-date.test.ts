import { describe, expect, it } from "vitest";
import {
  formatAgo,
  formatDate,
  formatDateTime,
  formatDayHeading,
  formatDayMonth,
  formatDayMonthTime,
  formatLongDate,
  formatRecent,
  formatTime,
} from "@/lib/i18n/dates";
import { intlLocale } from "@/lib/i18n/intl-locale";

/**
 * The one date and time formatter of the UI (lib/i18n/dates.ts). Instants are given an explicit
 * zone and "now" is fixed, so the results do not depend on the machine's zone or clock; wall-clock
 * strings never depend on a zone at all.
 */
const UTC = { timeZone: "UTC" };
const BOGOTA = { timeZone: "America/Bogota" };
const NOW = new Date("2026-11-25T18:00:00Z");

describe("one locale mapping", () => {
  it("Spanish writes the 24-hour clock, English the US way; anything else falls back to Spanish", () => {
    expect(intlLocale("es")).toBe("es");
    expect(intlLocale("en")).toBe("en-US");
    expect(intlLocale("fr")).toBe("es");
  });
});

describe("the named forms, in Spanish and in English", () => {
  const at = "2026-11-25T13:07:00Z";
  it("time of day", () => {
    expect(formatTime(at, "es", UTC)).toBe("13:07");
    expect(formatTime(at, "en", UTC)).toMatch(/^1:07\sPM$/);
    expect(formatTime("2026-11-25T09:05:00Z", "es", UTC)).toBe("9:05");
  });
  it("date and time: one format for every page", () => {
    expect(formatDateTime(at, "es", UTC)).toBe("25 nov 2026, 13:07");
    expect(formatDateTime(at, "en", UTC)).toMatch(/^Nov 25, 2026, 1:07\sPM$/);
    // Never the day/month/year with "p. m." that es-CO wrote on the broadcast pages.
    expect(formatDateTime(at, "es", UTC)).not.toMatch(/\d{1,2}\/\d{1,2}\/\d{4}|p\.\s?m\./);
  });
  it("date, day and month, a date in a sentence", () => {
    expect(formatDate(at, "es", UTC)).toBe("25 nov 2026");
    expect(formatDate(at, "en", UTC)).toBe("Nov 25, 2026");
    expect(formatDayMonth("2026-04-10", "es")).toBe("10 abr");
    expect(formatDayMonth("2026-04-10", "en")).toBe("Apr 10");
    expect(formatDayMonthTime(at, "es", UTC)).toBe("25 nov, 13:07");
    expect(formatDayMonthTime(at, "en", UTC)).toMatch(/^Nov 25, 1:07\sPM$/);
    expect(formatLongDate("1990-05-14", "es")).toBe("14 de mayo de 1990");
    expect(formatLongDate("1990-05-14", "en")).toBe("May 14, 1990");
  });
});

describe("which zone a value is shown in", () => {
  it("an instant is shown in the given (else the browser's) zone", () => {
    expect(formatDateTime("2026-11-25T13:07:00Z", "es", BOGOTA)).toBe("25 nov 2026, 8:07");
    expect(formatDateTime("2026-11-25T08:07:00-05:00", "es", UTC)).toBe("25 nov 2026, 13:07");
    expect(formatTime(Date.parse("2026-11-25T13:07:00Z"), "es", BOGOTA)).toBe("8:07");
    expect(formatTime(new Date("2026-11-25T13:07:00Z"), "en", BOGOTA)).toMatch(/^8:07\sAM$/);
  });
  it("a wall-clock string (a history record's created_at, a datetime-local value) is shown as written, whatever the zone", () => {
    for (const zone of [UTC, BOGOTA, { timeZone: "Asia/Tokyo" }]) {
      expect(formatTime("2026-11-20 14:05:09", "es", zone)).toBe("14:05");
      expect(formatDateTime("2026-11-20 14:05:09", "es", zone)).toBe("20 nov 2026, 14:05");
      expect(formatDateTime("2026-11-20T14:05", "en", zone)).toMatch(/^Nov 20, 2026, 2:05\sPM$/);
      expect(formatLongDate("2026-11-03", "es", zone)).toBe("3 de noviembre de 2026");
    }
  });
  it("what does not parse comes back as it came; nothing comes back empty", () => {
    expect(formatTime("garbage", "es")).toBe("garbage");
    expect(formatDateTime("mañana", "es")).toBe("mañana");
    expect(formatLongDate("1990-02-30", "es")).toBe("1990-02-30");
    expect(formatDate("2026-13-01", "en")).toBe("2026-13-01");
    expect(formatTime(null, "es")).toBe("");
    expect(formatTime(undefined, "en")).toBe("");
    expect(formatTime(Number.NaN, "en")).toBe("");
  });
  it("a call permission's expiry (Unix seconds) is not written the US way in Spanish", () => {
    const text = formatDateTime(1_795_000_000 * 1000, "es", UTC);
    expect(text).not.toMatch(/\d{1,2}\/\d{1,2}\/\d{4}|AM|PM/);
    expect(text).toBe("18 nov 2026, 11:06");
  });
});

describe("relative forms, against a fixed now", () => {
  const opts = { ...UTC, now: NOW };
  it("a list row: the time today, yesterday in words, day and month this year, the date before", () => {
    expect(formatRecent("2026-11-25T09:30:00Z", "es", opts)).toBe("9:30");
    expect(formatRecent("2026-11-25T09:30:00Z", "en", opts)).toMatch(/^9:30\sAM$/);
    expect(formatRecent("2026-11-24T23:59:00Z", "es", opts)).toBe("Ayer");
    expect(formatRecent("2026-11-24T23:59:00Z", "en", opts)).toBe("Yesterday");
    expect(formatRecent("2026-10-02T10:00:00Z", "es", opts)).toBe("2 oct");
    expect(formatRecent("2026-10-02T10:00:00Z", "en", opts)).toBe("Oct 2");
    expect(formatRecent("2025-10-02T10:00:00Z", "es", opts)).toBe("2 oct 2025");
    expect(formatRecent("2025-10-02T10:00:00Z", "en", opts)).toBe("Oct 2, 2025");
  });
  it("today and yesterday are days of the zone the value is shown in", () => {
    // 03:00 UTC on the 25th is still the 24th in Bogotá: yesterday there, today in UTC.
    expect(formatRecent("2026-11-25T03:00:00Z", "es", { timeZone: "America/Bogota", now: NOW })).toBe("Ayer");
    expect(formatRecent("2026-11-25T03:00:00Z", "es", opts)).toBe("3:00");
  });
  it("a thread's day separator", () => {
    expect(formatDayHeading("2026-11-25", "es", opts)).toBe("Hoy");
    expect(formatDayHeading("2026-11-25", "en", opts)).toBe("Today");
    expect(formatDayHeading("2026-11-24", "es", opts)).toBe("Ayer");
    expect(formatDayHeading("2026-11-03", "es", opts)).toBe("mar, 3 de noviembre de 2026");
    expect(formatDayHeading("2026-11-03", "en", opts)).toBe("Tue, November 3, 2026");
  });
});

describe("how long ago (a token's last use)", () => {
  const ago = (ms: number) => new Date(NOW.getTime() - ms);
  it("says it in minutes, hours and days within the week, then gives the date", () => {
    expect(formatAgo(ago(20_000), "es", { ...UTC, now: NOW })).toBe("ahora");
    expect(formatAgo(ago(20_000), "en", { ...UTC, now: NOW })).toBe("now");
    expect(formatAgo(ago(3 * 60_000 + 5_000), "es", { ...UTC, now: NOW })).toBe("hace 3 min");
    expect(formatAgo(ago(3 * 60_000), "en", { ...UTC, now: NOW })).toBe("3 min. ago");
    expect(formatAgo(ago(2 * 3600_000), "es", { ...UTC, now: NOW })).toBe("hace 2 h");
    expect(formatAgo(ago(3 * 86_400_000), "es", { ...UTC, now: NOW })).toBe("hace 3 días");
    expect(formatAgo(ago(3 * 86_400_000), "en", { ...UTC, now: NOW })).toBe("3 days ago");
    expect(formatAgo(ago(30 * 86_400_000), "es", { ...UTC, now: NOW })).toBe("26 oct 2026");
    expect(formatAgo(null, "es")).toBe("");
  });
});
