/**
 * The calendar the API accepts: every date a client sends (a report's or the stats' days, the
 * history's window, a broadcast's schedule, a conversation cursor's instant) lies between
 * FIRST_SUPPORTED_DAY and LAST_SUPPORTED_DAY, both included; a well-formed date outside answers
 * 422 with `dateOutOfRange`.
 *
 * Why a range at all: the work of a request must be bounded before it starts. A date in year 9999
 * turned the reports' day walk into an endless loop (the day after 9999-12-31 is "+010000-01-01",
 * which JavaScript writes with six digits and a sign, and which neither the walk nor PostgreSQL
 * read as the next day), and reached PostgreSQL as a date it refuses (22009, a 500). Why these
 * ends: no message of the service can predate 2000 (WhatsApp itself began in 2009), and a schedule
 * or a report reaching past 2100 is a typo; inside them every year has four digits, so the
 * `YYYY-MM-DD` texts of JavaScript and PostgreSQL agree, and a walk over the whole range is at
 * most 36,890 days (and each endpoint caps its own ranges far below that).
 */
export const FIRST_SUPPORTED_DAY = "2000-01-01";
export const LAST_SUPPORTED_DAY = "2100-12-31";

export const DAY_MS = 86_400_000;
/** The first instant of FIRST_SUPPORTED_DAY and the first instant after LAST_SUPPORTED_DAY (UTC). */
export const SUPPORTED_FROM_MS = Date.UTC(2000, 0, 1);
export const SUPPORTED_UNTIL_MS = Date.UTC(2101, 0, 1);

export const dateOutOfRange = (field: string) =>
  `El campo ${field} debe ser una fecha entre ${FIRST_SUPPORTED_DAY} y ${LAST_SUPPORTED_DAY}.`;

/** Whether a calendar year is inside the supported range. */
export function isSupportedYear(year: number): boolean {
  return year >= 2000 && year <= 2100;
}

/** Whether an instant (ms since the epoch) is inside the supported range, in UTC. */
export function isSupportedInstant(ms: number): boolean {
  return ms >= SUPPORTED_FROM_MS && ms < SUPPORTED_UNTIL_MS;
}

/**
 * The first instant (UTC, ms) of a calendar day written `YYYY-MM-DD` that exists (2026-02-30 does
 * not), or null. Any four-digit year: the caller tells a bad date from an unsupported one.
 */
export function utcDayMs(text: string): number | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return null;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear keeps them as written.
  const t = new Date(Date.UTC(2000, mo - 1, d));
  t.setUTCFullYear(y, mo - 1, d);
  return t.getUTCFullYear() === y && t.getUTCMonth() === mo - 1 && t.getUTCDate() === d ? t.getTime() : null;
}

/** The UTC calendar day `YYYY-MM-DD` of an instant inside the supported range. */
export function utcDayText(ms: number): string {
  const d = new Date(ms);
  const m = d.getUTCMonth() + 1;
  const day = d.getUTCDate();
  return `${d.getUTCFullYear()}-${m < 10 ? "0" : ""}${m}-${day < 10 ? "0" : ""}${day}`;
}

/** Days from one `utcDayMs` to another, both included (1 for the same day; 0 or less when `to` comes first). */
export function daysInclusive(fromMs: number, toMs: number): number {
  return Math.round((toMs - fromMs) / DAY_MS) + 1;
}
