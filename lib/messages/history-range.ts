import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { formatLocal } from "./record";
import type { LocalDate } from "./history-schemas";

export const FROM_AFTER_TO = "La fecha from_date no puede ser posterior a to_date.";
export const rangeTooLong = (days: number) => `El rango de fechas no puede superar los ${days} días.`;

/**
 * The history window as wall-clock texts in APP_TIMEZONE: `from` inclusive, `toExclusive` the first
 * instant after the window, or null for "until now". An exclusive bound keeps messages with
 * fractional seconds (23:59:59.5) inside a day-form `to_date`, and the SQL turns both into instants
 * with `AT TIME ZONE`, so daylight-saving shifts are Postgres's problem, not ours.
 */
export type HistoryWindow = { from: string; toExclusive: string | null };

function wallMs(text: string): number {
  const [d, t] = text.split(" ");
  const [y, mo, da] = d.split("-").map(Number);
  const [h, mi, s] = t.split(":").map(Number);
  return Date.UTC(y, mo - 1, da, h, mi, s);
}

function wallText(ms: number): string {
  return new Date(ms).toISOString().slice(0, 19).replace("T", " ");
}

export function resolveWindow(from: LocalDate, to: LocalDate | undefined, now = new Date()): HistoryWindow {
  // A day-form to_date covers that whole day (spec 4.5: "up to 23:59:59").
  const toExclusive = to ? wallText(wallMs(to.text) + (to.dayOnly ? 86_400_000 : 1000)) : null;
  const lastSecond = toExclusive ? wallMs(toExclusive) - 1000 : wallMs(formatLocal(now));
  const first = wallMs(from.text);
  if (first > lastSecond) throw ApiError.invalid("from_date", FROM_AFTER_TO);
  const maxDays = config.historyMaxRangeDays;
  if (lastSecond - first > maxDays * 86_400_000) throw ApiError.invalid("from_date", rangeTooLong(maxDays));
  return { from: from.text, toExclusive };
}
