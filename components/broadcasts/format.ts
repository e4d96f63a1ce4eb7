import type { Locale } from "@/lib/i18n";

// Dates are written by lib/i18n/dates.ts, the one date formatter of the UI.

export function formatNumber(n: number, locale: Locale): string {
  return n.toLocaleString(locale === "es" ? "es-CO" : "en-US");
}
