"use client";
import { useT } from "@/lib/i18n";

/** The first stop of the keyboard on every page: straight to `#main`, past the header. */
export function SkipToContent() {
  const t = useT();
  return (
    <a
      href="#main"
      className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
    >
      {t("app.skip")}
    </a>
  );
}
