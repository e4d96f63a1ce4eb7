import type { Locale } from "./index";
import { intlLocale } from "./intl-locale";

/**
 * A calendar date typed by hand, in the UI's language: "03/11/2026" in Spanish (day first),
 * "11/03/2026" in English (month first), always held as ISO "2026-11-03". The browser's own
 * `<input type="date">` follows the browser's language, not the UI's, hence this field.
 * An ISO date typed or pasted ("2026-11-03") is taken too. Plain functions: unit-tested.
 */

type Field = "day" | "month" | "year";

const orders = new Map<string, Field[]>();

/** The order the UI's language writes a numeric date's fields in, from Intl. */
export function dateFieldOrder(locale: Locale | string): Field[] {
  const tag = intlLocale(locale);
  let order = orders.get(tag);
  if (!order) {
    const parts = new Intl.DateTimeFormat(tag, { day: "2-digit", month: "2-digit", year: "numeric", timeZone: "UTC" }).formatToParts(
      new Date(Date.UTC(2026, 10, 3)),
    );
    order = parts.map((p) => p.type).filter((type): type is Field => type === "day" || type === "month" || type === "year");
    orders.set(tag, order);
  }
  return order;
}

const ISO_RE = /^(\d{4})-(\d{2})-(\d{2})$/;

function isoOf(y: number, m: number, d: number): string | null {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (y < 1000 || y > 9999 || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return null;
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** An ISO date as the field shows it ("03/11/2026" / "11/03/2026"); "" for nothing or no date. */
export function formatDateInput(iso: string, locale: Locale | string): string {
  const m = ISO_RE.exec(iso);
  if (!m) return "";
  const fields: Record<Field, string> = { year: m[1]!, month: m[2]!, day: m[3]! };
  return dateFieldOrder(locale)
    .map((f) => fields[f])
    .join("/");
}

/**
 * What the agent typed, as ISO: "" for an empty field, null for text that is not a real date.
 * Any of / . - or spaces separate the fields; a two-digit year is this century's.
 */
export function parseDateInput(text: string, locale: Locale | string): string | null {
  const value = text.trim();
  if (value === "") return "";
  const iso = ISO_RE.exec(value);
  if (iso) return isoOf(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const pieces = value.split(/[/.\-\s]+/);
  if (pieces.length !== 3 || !pieces.every((p) => /^\d{1,4}$/.test(p))) return null;
  const fields = {} as Record<Field, number>;
  dateFieldOrder(locale).forEach((f, i) => (fields[f] = Number(pieces[i])));
  const yearText = pieces[dateFieldOrder(locale).indexOf("year")]!;
  if (yearText.length === 2) fields.year += 2000;
  else if (yearText.length !== 4) return null;
  return isoOf(fields.year, fields.month, fields.day);
}
