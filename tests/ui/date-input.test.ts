import { describe, expect, it } from "vitest";
import { dateFieldOrder, formatDateInput, parseDateInput } from "@/lib/i18n/date-input";
import { es } from "@/lib/i18n/es";
import { en } from "@/lib/i18n/en";

describe("the app's date field in the UI's language (lib/i18n/date-input.ts)", () => {
  it("writes an ISO date day first in Spanish and month first in English", () => {
    expect(formatDateInput("2026-11-03", "es")).toBe("03/11/2026");
    expect(formatDateInput("2026-11-03", "en")).toBe("11/03/2026");
    expect(formatDateInput("", "es")).toBe("");
    expect(formatDateInput("not a date", "en")).toBe("");
  });

  it("reads what was typed the UI's way, and ISO, back as ISO", () => {
    expect(parseDateInput("3/11/2026", "es")).toBe("2026-11-03");
    expect(parseDateInput("03-11-26", "es")).toBe("2026-11-03");
    expect(parseDateInput("11/3/2026", "en")).toBe("2026-11-03");
    expect(parseDateInput("2026-11-03", "en")).toBe("2026-11-03");
    expect(parseDateInput("  ", "es")).toBe("");
  });

  it("refuses what is not a real date", () => {
    expect(parseDateInput("31/02/2026", "es")).toBeNull();
    expect(parseDateInput("13/01/2026", "en")).toBeNull();
    expect(parseDateInput("2026-02-30", "es")).toBeNull();
    expect(parseDateInput("3/11", "es")).toBeNull();
    expect(parseDateInput("3/11/202", "es")).toBeNull();
    expect(parseDateInput("ayer", "es")).toBeNull();
  });

  it("says the order it reads in its placeholder", () => {
    const letters = (order: string[], words: Record<string, string>) => order.map((f) => words[f]).join("/");
    expect(es["date.placeholder"]).toBe(letters(dateFieldOrder("es"), { day: "dd", month: "mm", year: "aaaa" }));
    expect(en["date.placeholder"]).toBe(letters(dateFieldOrder("en"), { day: "dd", month: "mm", year: "yyyy" }));
  });
});
