"use client";
import Link from "next/link";
import { usePathname } from "next/navigation";
import type { ReactNode } from "react";
import { useMe } from "@/lib/api-client/auth";
import { allows } from "@/lib/auth/permissions";
import { useT } from "@/lib/i18n";
import { cx, PageTitle } from "@/components/ui";
import { SETTINGS_SECTIONS } from "./sections";

/** The settings' frame: a title, the sections the agent's role may open, and the open section. */
export function SettingsLayout({ children }: { children: ReactNode }) {
  const t = useT();
  const pathname = usePathname();
  const me = useMe();
  const role = me.data?.role;
  const sections = SETTINGS_SECTIONS.filter((s) => !role || allows({ role }, s.need));
  return (
    <>
      <PageTitle>{t("settings.title")}</PageTitle>
      <div className="flex flex-col gap-4 md:flex-row">
        <nav aria-label={t("settings.sections")} className="md:w-52 md:shrink-0">
          <ul className="flex flex-wrap gap-1 md:flex-col">
            {sections.map((s) => {
              const href = `/settings/${s.slug}`;
              const active = pathname === href || pathname.startsWith(`${href}/`);
              return (
                <li key={s.slug}>
                  <Link
                    href={href}
                    aria-current={active ? "page" : undefined}
                    className={cx(
                      "block rounded px-3 py-1.5 text-sm",
                      active ? "bg-emerald-100 font-semibold text-emerald-900" : "text-slate-700 hover:bg-slate-100",
                    )}
                  >
                    {t(s.key)}
                  </Link>
                </li>
              );
            })}
          </ul>
        </nav>
        <div className="min-w-0 flex-1">{children}</div>
      </div>
    </>
  );
}
