"use client";
import { LOCALES, useI18n, type Locale } from "@/lib/i18n";

export function LanguageSwitch({ className }: { className?: string }) {
  const { locale, setLocale, t } = useI18n();
  return (
    <label className={className}>
      <span className="sr-only">{t("nav.language")}</span>
      <select
        value={locale}
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
