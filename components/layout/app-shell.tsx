"use client";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, useState, type ReactNode } from "react";
import { useLogout, useMe } from "@/lib/api-client/hooks";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { useT, type MessageKey } from "@/lib/i18n";
import { cx, ErrorBox, Skeleton } from "@/components/ui";
import { LanguageSwitch } from "./language-switch";

const NAV: { href: string; key: MessageKey }[] = [
  { href: "/inbox", key: "nav.inbox" },
  { href: "/send", key: "nav.send" },
  { href: "/broadcasts", key: "nav.broadcasts" },
  { href: "/contacts", key: "nav.contacts" },
  { href: "/labels", key: "nav.labels" },
  { href: "/saved-replies", key: "nav.savedReplies" },
  { href: "/conversations", key: "nav.conversations" },
  { href: "/reports", key: "nav.reports" },
];

/** Dashboard frame: checks the session (→ /login on 401), navigation, language and sign-out. */
export function AppShell({ children }: { children: ReactNode }) {
  const t = useT();
  const pathname = usePathname();
  const router = useRouter();
  const me = useMe();
  const logout = useLogout();
  const [open, setOpen] = useState(false);
  const unauthenticated = me.error instanceof ApiRequestError && me.error.status === 401;

  useEffect(() => {
    if (unauthenticated) router.replace(`/login?next=${encodeURIComponent(pathname)}`);
  }, [unauthenticated, router, pathname]);

  // The inbox is exactly the window's height (its panes scroll inside); other pages grow with their content.
  const fitted = pathname.startsWith("/inbox");
  return (
    <div className={cx("flex flex-col", fitted ? "h-dvh" : "min-h-dvh")}>
      <a
        href="#main"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:p-2"
      >
        {t("app.skip")}
      </a>
      <header className="bg-wa-green text-white shadow">
        <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-2">
          <Link href="/inbox" className="font-semibold tracking-tight">
            {t("app.name")}
          </Link>
          <button
            type="button"
            className="ml-auto rounded px-2 py-1 text-sm ring-1 ring-white/50 md:hidden"
            aria-expanded={open}
            aria-controls="main-nav"
            onClick={() => setOpen((o) => !o)}
          >
            {t("nav.menu")}
          </button>
          <nav id="main-nav" aria-label={t("nav.main")} className={cx("w-full md:block md:w-auto", open ? "block" : "hidden")}>
            <ul className="flex flex-col gap-1 md:flex-row md:gap-1">
              {NAV.map((item) => {
                const active = pathname.startsWith(item.href);
                return (
                  <li key={item.href}>
                    <Link
                      href={item.href}
                      aria-current={active ? "page" : undefined}
                      onClick={() => setOpen(false)}
                      className={cx(
                        "block rounded px-3 py-1.5 text-sm",
                        active ? "bg-wa-green-dark font-semibold" : "hover:bg-wa-green-dark/60",
                      )}
                    >
                      {t(item.key)}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
          <div className={cx("w-full items-center gap-3 md:ml-auto md:flex md:w-auto", open ? "flex" : "hidden")}>
            {me.data ? (
              <span className="text-sm" data-testid="agent-name">
                {me.data.name}
              </span>
            ) : (
              <Skeleton className="h-4 w-20 bg-white/30" />
            )}
            <a href="/docs" className="rounded px-2 py-1 text-sm hover:bg-white/10" data-testid="docs-link">
              {t("nav.docs")}
            </a>
            <LanguageSwitch />
            <button
              type="button"
              className="rounded px-2 py-1 text-sm ring-1 ring-white/60 hover:bg-white/10"
              onClick={() => logout.mutate(undefined, { onSettled: () => router.replace("/login") })}
            >
              {t("nav.logout")}
            </button>
          </div>
        </div>
      </header>
      {/* The inbox fills what the header leaves of the window (a column it grows in), whatever the
          header's height: a page taller than the window lets the wheel scroll the inbox away. */}
      <main id="main" className={cx("mx-auto w-full max-w-7xl flex-1 px-4 py-6", fitted && "flex min-h-0 flex-col")}>
        {me.error && !unauthenticated ? <ErrorBox error={me.error} onRetry={() => me.refetch()} /> : children}
      </main>
    </div>
  );
}
