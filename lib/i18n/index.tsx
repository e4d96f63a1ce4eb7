"use client";
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from "react";
import { es, type MessageKey } from "./es";
import { en } from "./en";
import { format } from "./format";

export type Locale = "es" | "en";
export const LOCALES: Locale[] = ["es", "en"];
const catalogues: Record<Locale, Record<MessageKey, string>> = { es, en };
const STORAGE_KEY = "wa_locale";

export type Translate = (key: MessageKey, vars?: Record<string, string | number>) => string;

export { format };

type Ctx = { locale: Locale; setLocale: (l: Locale) => void; t: Translate };
const I18nContext = createContext<Ctx | null>(null);

export function I18nProvider({ children }: { children: ReactNode }) {
  // Spanish on the server and first paint; a saved choice applies right after hydration.
  const [locale, setLocaleState] = useState<Locale>("es");
  useEffect(() => {
    const saved = window.localStorage.getItem(STORAGE_KEY);
    // eslint-disable-next-line react-hooks/set-state-in-effect -- localStorage is only readable after hydration
    if (saved === "en" || saved === "es") setLocaleState(saved);
  }, []);
  useEffect(() => {
    document.documentElement.lang = locale;
  }, [locale]);
  const setLocale = useCallback((l: Locale) => {
    window.localStorage.setItem(STORAGE_KEY, l);
    setLocaleState(l);
  }, []);
  const t = useCallback<Translate>((key, vars) => format(catalogues[locale][key] ?? key, vars, locale), [locale]);
  const value = useMemo(() => ({ locale, setLocale, t }), [locale, setLocale, t]);
  return <I18nContext.Provider value={value}>{children}</I18nContext.Provider>;
}

export function useI18n(): Ctx {
  const ctx = useContext(I18nContext);
  if (!ctx) throw new Error("useI18n outside I18nProvider");
  return ctx;
}

export function useT(): Translate {
  return useI18n().t;
}

export type { MessageKey };
