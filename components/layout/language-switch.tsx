"use client";
import { useSyncExternalStore } from "react";
import { LOCALES, useI18n, type Locale } from "@/lib/i18n";

const noSubscription = () => () => {};

/**
 * The UI's language. Disabled until React has hydrated the page: a choice made on the server's
 * HTML before that was silently undone (hydration sets the controlled select back to the
 * rendered language without an onChange), so the page stayed in the old language.
 */
export function LanguageSwitch({ className }: { className?: string }) {
  const { locale, setLocale, t } = useI18n();
  // false in the server's HTML and during hydration, true from the first render after it.
  const hydrated = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  return (
    <label className={className}>
      <span className="sr-only">{t("nav.language")}</span>
      <select
        value={locale}
        disabled={!hydrated}
        onChange={(e) => setLocale(e.target.value as Locale)}
        className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm text-slate-800"
      >
        {LOCALES.map((l) => (
          <option key={l} value={l}>
            {l === "es" ? "Español" : "English"}
          </option>
        ))}
      </select>
    </label>
  );
}
