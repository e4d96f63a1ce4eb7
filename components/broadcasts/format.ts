import type { Locale } from "@/lib/i18n";

/** A date-time in the agent's language and the browser's zone ("24 nov 2026, 07:45"). */
export function formatDateTime(iso: string | null | undefined, locale: Locale): string {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return d.toLocaleString(locale === "es" ? "es-CO" : "en-US", { dateStyle: "medium", timeStyle: "short" });
}

export function formatNumber(n: number, locale: Locale): string {
  return n.toLocaleString(locale === "es" ? "es-CO" : "en-US");
}
