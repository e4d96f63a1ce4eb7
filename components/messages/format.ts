/**
 * Amounts in the UI's language (es or en), never the browser's default. Pure functions: every input
 * is untrusted and anything that does not parse is returned as it came. Dates and times are
 * written by lib/i18n/dates.ts, the one date formatter of the UI.
 */
import { numberFormat } from "@/lib/i18n/numbers-format";

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
      return numberFormat(locale, { style: "currency", currency: code }).format(amount);
    } catch {
      // An unknown code falls through to the plain number.
    }
  }
  const plain = numberFormat(locale, { maximumFractionDigits: 2 }).format(amount);
  return code ? `${plain} ${currency.trim().slice(0, 8)}` : plain;
}
