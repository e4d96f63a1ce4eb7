import type { Locale } from "./index";
import { intlLocale } from "./intl-locale";

/**
 * The one way the UI writes dates and times, in the UI's language (never the browser's, which is
 * US English in most test browsers). Every page and component formats through these functions, so
 * a time reads "14:05" and a date with its time "25 nov 2026, 14:05" wherever it appears
 * ("2:05 PM" and "Nov 25, 2026, 2:05 PM" in English).
 *
 * What a value means decides the zone it is shown in:
 * - an instant (a `Date`, epoch milliseconds, or an ISO string with `Z` or an offset, as the API's
 *   `created_at` of notes, broadcasts and contacts) is shown in the browser's zone;
 * - a wall-clock string without a zone ("2026-11-20 14:05:09", a history record's `created_at`,
 *   already in the app's zone; "2026-11-20T14:05" from a datetime-local input; a calendar date
 *   "1990-05-14") is shown exactly as written, whatever the browser's zone.
 * Anything that does not parse is returned as it came (payloads are untrusted), "" for nothing.
 */

export type DateInput = Date | string | number | null | undefined;

/** `timeZone` (IANA) shows instants in that zone instead of the browser's; `now` fixes "today" (tests). */
export type DateOptions = { timeZone?: string; now?: Date | number };

type Moment = { date: Date; timeZone: string | undefined };

const WALL_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?)?$/;
const ZONED_RE = /^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/i;

function toMoment(value: DateInput, opts: DateOptions = {}): Moment | null {
  if (value == null || value === "") return null;
  if (value instanceof Date || typeof value === "number") {
    const date = new Date(value);
    return Number.isNaN(date.getTime()) ? null : { date, timeZone: opts.timeZone };
  }
  const text = value.trim();
  const wall = WALL_RE.exec(text);
  if (wall) {
    // The written fields, held as UTC and shown in UTC: nothing shifts them.
    const [y, mo, d, h = "0", mi = "0", s = "0"] = wall.slice(1);
    const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
    // Date.UTC rolls 30 February over to March: such a date is not a date.
    if (Number.isNaN(date.getTime()) || date.getUTCDate() !== Number(d) || date.getUTCMonth() !== Number(mo) - 1) return null;
    return { date, timeZone: "UTC" };
  }
  if (ZONED_RE.test(text)) {
    const date = new Date(text);
    return Number.isNaN(date.getTime()) ? null : { date, timeZone: opts.timeZone };
  }
  return null;
}

// Intl.DateTimeFormat objects are costly to build; a long list formats hundreds of rows.
const cache = new Map<string, Intl.DateTimeFormat>();
function formatter(locale: Locale | string, timeZone: string | undefined, form: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${intlLocale(locale)}|${timeZone ?? ""}|${JSON.stringify(form)}`;
  let f = cache.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat(intlLocale(locale), { ...form, timeZone });
    cache.set(key, f);
  }
  return f;
}

const TIME: Intl.DateTimeFormatOptions = { hour: "numeric", minute: "2-digit" };
const DATE: Intl.DateTimeFormatOptions = { day: "numeric", month: "short", year: "numeric" };
const DATE_TIME: Intl.DateTimeFormatOptions = { ...DATE, ...TIME };
const DAY_MONTH: Intl.DateTimeFormatOptions = { day: "numeric", month: "short" };
const LONG_DATE: Intl.DateTimeFormatOptions = { day: "numeric", month: "long", year: "numeric" };
const DAY_HEADING: Intl.DateTimeFormatOptions = { weekday: "short", ...LONG_DATE };

function format(value: DateInput, locale: Locale | string, form: Intl.DateTimeFormatOptions, opts?: DateOptions): string {
  const m = toMoment(value, opts);
  if (!m) return typeof value === "string" ? value : "";
  return formatter(locale, m.timeZone, form).format(m.date);
}

/** A time of day: "14:05" / "2:05 PM". */
export function formatTime(value: DateInput, locale: Locale | string, opts?: DateOptions): string {
  return format(value, locale, TIME, opts);
}

/** A date with its time: "25 nov 2026, 14:05" / "Nov 25, 2026, 2:05 PM". */
export function formatDateTime(value: DateInput, locale: Locale | string, opts?: DateOptions): string {
  return format(value, locale, DATE_TIME, opts);
}

/** A date: "25 nov 2026" / "Nov 25, 2026". */
export function formatDate(value: DateInput, locale: Locale | string, opts?: DateOptions): string {
  return format(value, locale, DATE, opts);
}

/** A day of the month without its year, where the year is plain (chart axes): "25 nov" / "Nov 25". */
export function formatDayMonth(value: DateInput, locale: Locale | string, opts?: DateOptions): string {
  return format(value, locale, DAY_MONTH, opts);
}

/** A day and time without the year, for a chart's axis: "25 nov, 14:05" / "Nov 25, 2:05 PM". */
export function formatDayMonthTime(value: DateInput, locale: Locale | string, opts?: DateOptions): string {
  return format(value, locale, { ...DAY_MONTH, ...TIME }, opts);
}

/** A date inside a sentence, month in full: "3 de noviembre de 2026" / "November 3, 2026". */
export function formatLongDate(value: DateInput, locale: Locale | string, opts?: DateOptions): string {
  return format(value, locale, LONG_DATE, opts);
}

/** The day "YYYY-MM-DD" a value falls on, in the zone it is shown in. */
function dayKey(m: Moment): string {
  const parts = formatter("en", m.timeZone, { year: "numeric", month: "2-digit", day: "2-digit" }).formatToParts(m.date);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")}`;
}

/** How many calendar days before today (in the browser's zone, or `timeZone`) a value falls: 0 today, 1 yesterday. */
function daysAgo(m: Moment, opts: DateOptions): number {
  const now = new Date(opts.now ?? Date.now());
  const today = dayKey({ date: now, timeZone: opts.timeZone });
  const then = dayKey(m);
  return Math.round((Date.parse(`${today}T00:00:00Z`) - Date.parse(`${then}T00:00:00Z`)) / 86_400_000);
}

/** "Hoy" / "Ayer" / "Today" / "Yesterday", from Intl, capitalised to start a label. */
function relativeDay(daysBack: 0 | 1, locale: Locale | string): string {
  const word = new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: "auto" }).format(-daysBack, "day");
  return word.charAt(0).toLocaleUpperCase(intlLocale(locale)) + word.slice(1);
}

/**
 * When something happened, as short as a list row allows: the time today, "Ayer" / "Yesterday",
 * the day and month this year, the date before.
 */
export function formatRecent(value: DateInput, locale: Locale | string, opts: DateOptions = {}): string {
  const m = toMoment(value, opts);
  if (!m) return typeof value === "string" ? value : "";
  const ago = daysAgo(m, opts);
  if (ago === 0) return formatter(locale, m.timeZone, TIME).format(m.date);
  if (ago === 1) return relativeDay(1, locale);
  const thisYear = dayKey({ date: new Date(opts.now ?? Date.now()), timeZone: opts.timeZone }).slice(0, 4);
  return formatter(locale, m.timeZone, dayKey(m).startsWith(thisYear) ? DAY_MONTH : DATE).format(m.date);
}

/** A day separator in a thread: "Hoy", "Ayer", else the date with its weekday ("mar, 3 de noviembre de 2026"). */
export function formatDayHeading(value: DateInput, locale: Locale | string, opts: DateOptions = {}): string {
  const m = toMoment(value, opts);
  if (!m) return typeof value === "string" ? value : "";
  const ago = daysAgo(m, opts);
  if (ago === 0 || ago === 1) return relativeDay(ago, locale);
  return formatter(locale, m.timeZone, DAY_HEADING).format(m.date);
}

/**
 * How long ago something happened, for a "last used" column: "ahora" / "now" within the minute,
 * "hace 3 min" / "3 min. ago", "hace 2 h" / "2 hr. ago", "ayer" / "yesterday", "hace 3 días" /
 * "3 days ago" within the week, the date before that. Counted from `opts.now` (tests) or now.
 */
export function formatAgo(value: DateInput, locale: Locale | string, opts: DateOptions = {}): string {
  const m = toMoment(value, opts);
  if (!m) return typeof value === "string" ? value : "";
  const seconds = Math.max(0, (new Date(opts.now ?? Date.now()).getTime() - m.date.getTime()) / 1000);
  const short = relative(locale, "short");
  if (seconds < 60) return short.format(0, "second");
  if (seconds < 3600) return short.format(-Math.floor(seconds / 60), "minute");
  if (seconds < 86_400) return short.format(-Math.floor(seconds / 3600), "hour");
  if (seconds < 7 * 86_400) return relative(locale, "long").format(-Math.floor(seconds / 86_400), "day");
  return format(value, locale, DATE, opts);
}

const relatives = new Map<string, Intl.RelativeTimeFormat>();
function relative(locale: Locale | string, style: "short" | "long"): Intl.RelativeTimeFormat {
  const key = `${intlLocale(locale)}|${style}`;
  let f = relatives.get(key);
  if (!f) {
    f = new Intl.RelativeTimeFormat(intlLocale(locale), { numeric: "auto", style });
    relatives.set(key, f);
  }
  return f;
}
