import type { Locale } from "./index";

/**
 * The one mapping from the UI's language to an Intl locale, for dates, language names and amounts:
 * Spanish writes the 24-hour clock ("14:05"), English the US way.
 */
const INTL_LOCALE: Record<Locale, string> = { es: "es", en: "en-US" };

export function intlLocale(locale: Locale | string): string {
  return INTL_LOCALE[locale as Locale] ?? INTL_LOCALE.es;
}
