import type { Locale } from "./index";
import { intlLocale } from "./intl-locale";

/**
 * The one way the UI writes numbers and lists, in the UI's language (never the browser's).
 * Spanish groups thousands from four digits on ("1.234", as a Spanish-speaking agent reads an
 * amount), where CLDR's "es" would wait for five ("1234"); English writes "1,234".
 * Plain functions, no React: the message formatter (format.ts) and server code use them too.
 */

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A cached Intl.NumberFormat for the UI's language; `opts` as Intl takes them. */
export function numberFormat(locale: Locale | string, opts: Intl.NumberFormatOptions = {}): Intl.NumberFormat {
  const key = `${intlLocale(locale)}|${JSON.stringify(opts)}`;
  let f = numberFormats.get(key);
  if (!f) {
    f = new Intl.NumberFormat(intlLocale(locale), { useGrouping: "always", ...opts });
    numberFormats.set(key, f);
  }
  return f;
}

/** A count or amount: "1.234" / "1,234"; "1.234,5" / "1,234.5" (at most two decimals unless `opts` says). */
export function formatNumber(n: number, locale: Locale | string, opts?: Intl.NumberFormatOptions): string {
  return numberFormat(locale, { maximumFractionDigits: 2, ...opts }).format(n);
}

const listFormats = new Map<string, Intl.ListFormat>();

/** Items joined as a sentence says them: "a, b y c" / "a, b, and c" (`or` for alternatives). */
export function formatList(items: readonly string[], locale: Locale | string, type: "conjunction" | "disjunction" = "conjunction"): string {
  const key = `${intlLocale(locale)}|${type}`;
  let f = listFormats.get(key);
  if (!f) {
    f = new Intl.ListFormat(intlLocale(locale), { type, style: "long" });
    listFormats.set(key, f);
  }
  return f.format(items);
}
