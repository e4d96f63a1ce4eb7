/**
 * Dates, times and amounts in the UI's language (es or en), never the browser's default (which is
 * US English in most test browsers). Pure functions: every input is untrusted and anything that
 * does not parse is returned as it came.
 */

const TAG: Record<string, string> = { es: "es", en: "en-US" };
const tagOf = (locale: string) => TAG[locale] ?? locale;

const WALL_RE = /^(\d{4})-(\d{2})-(\d{2})(?:[ T](\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/** A wall-clock "YYYY-MM-DD[ HH:mm[:ss]]" (already in the app's time zone) as a UTC Date holding those fields. */
function wallDate(text: string): Date | null {
  const m = WALL_RE.exec(text.trim());
  if (!m) return null;
  const [y, mo, d, h = "0", mi = "0", s = "0"] = m.slice(1);
  const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Number(s)));
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Time of day of a history record's `created_at`: "14:05" in Spanish, "2:05 PM" in English. */
export function formatWallTime(createdAt: string | null | undefined, locale: string): string {
  const d = createdAt ? wallDate(createdAt) : null;
  if (!d) return createdAt?.slice(11, 16) ?? "";
  return new Intl.DateTimeFormat(tagOf(locale), { hour: "numeric", minute: "2-digit", timeZone: "UTC" }).format(d);
}

/** Full date and time of a `created_at`, for a tooltip. */
export function formatWallDateTime(createdAt: string | null | undefined, locale: string): string {
  const d = createdAt ? wallDate(createdAt) : null;
  if (!d) return createdAt ?? "";
  return new Intl.DateTimeFormat(tagOf(locale), { dateStyle: "long", timeStyle: "short", timeZone: "UTC" }).format(d);
}

/** A calendar date "YYYY-MM-DD" (a birthday): "14 de mayo de 1990" / "May 14, 1990". */
export function formatCalendarDate(text: string, locale: string): string {
  const d = /^\d{4}-\d{2}-\d{2}$/.test(text.trim()) ? wallDate(text) : null;
  if (!d || d.getUTCDate() !== Number(text.trim().slice(8, 10))) return text;
  return new Intl.DateTimeFormat(tagOf(locale), { dateStyle: "long", timeZone: "UTC" }).format(d);
}

/** An instant in Unix seconds (string or number), in the browser's time zone. */
export function formatInstant(seconds: unknown, locale: string): string {
  const text = typeof seconds === "number" ? String(seconds) : typeof seconds === "string" ? seconds.trim() : "";
  if (!/^\d{1,12}$/.test(text)) return text;
  return new Intl.DateTimeFormat(tagOf(locale), { dateStyle: "medium", timeStyle: "short" }).format(new Date(Number(text) * 1000));
}

/** A number as the locale writes it; "" when it is not one. */
export function parseAmount(value: unknown): number | null {
  const n = typeof value === "number" ? value : typeof value === "string" && value.trim() !== "" ? Number(value.trim()) : NaN;
  return Number.isFinite(n) ? n : null;
}

/** An amount with its ISO 4217 currency ("45.000 COP" / "COP 45,000"), or the plain number when the code is not valid. */
export function formatMoney(amount: number, currency: string, locale: string): string {
  const code = currency.trim().toUpperCase();
  if (/^[A-Z]{3}$/.test(code)) {
    try {
      return new Intl.NumberFormat(tagOf(locale), { style: "currency", currency: code }).format(amount);
    } catch {
      // An unknown code falls through to the plain number.
    }
  }
  const plain = new Intl.NumberFormat(tagOf(locale), { maximumFractionDigits: 2 }).format(amount);
  return code ? `${plain} ${currency.trim().slice(0, 8)}` : plain;
}
