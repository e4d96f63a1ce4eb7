import type { Locale } from "@/lib/i18n";
import { intlLocale } from "@/lib/i18n/intl-locale";

/**
 * What an agent reads for a template. WhatsApp names a template with a slug (lowercase, digits and
 * underscores: `promo_navidad_2026`); the UI shows it as words ("Promo navidad 2026") and keeps
 * the slug beside it, smaller, where the exact name matters (the send form, a broadcast's page).
 */
export function templateDisplayName(name: string): string {
  const words = name.replace(/[_-]+/g, " ").replace(/\s+/g, " ").trim();
  if (!words) return name;
  return words.charAt(0).toLocaleUpperCase("es") + words.slice(1);
}

/** A template's language code (`es`, `es_MX`, `en_US`) as a name in the UI's language: "español (México)". */
export function templateLanguageName(code: string, locale: Locale): string {
  try {
    return new Intl.DisplayNames([intlLocale(locale)], { type: "language" }).of(code.replace(/_/g, "-")) ?? code;
  } catch {
    // Not a language tag: shown as it is.
    return code;
  }
}
