import { getCountries } from "libphonenumber-js";
import type { Locale } from "./index";
import { intlLocale } from "./intl-locale";

/** Every country libphonenumber-js knows (what the server accepts), named and sorted in the UI's language. */
export function countryOptions(locale: Locale): { code: string; name: string }[] {
  const names = new Intl.DisplayNames([intlLocale(locale)], { type: "region" });
  return getCountries()
    .map((code) => ({ code: code as string, name: names.of(code) ?? code }))
    .sort((a, b) => a.name.localeCompare(b.name, intlLocale(locale)));
}
