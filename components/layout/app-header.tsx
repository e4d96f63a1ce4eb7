"use client";
import Link from "next/link";
import { usePathname, useRouter } from "next/navigation";
import { useState } from "react";
import { useLogout, useMe } from "@/lib/api-client/auth";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { useT, type MessageKey } from "@/lib/i18n";
import { cx, Skeleton } from "@/components/ui";
import { LanguageSwitch } from "./language-switch";
import { allows, type Permission } from "@/lib/auth/permissions";

// `need`: shown only to a role granted it (the server refuses the rest anyway: docs/roles.md).
const NAV: { href: string; key: MessageKey; need?: Permission }[] = [
  { href: "/inbox", key: "nav.inbox" },
  { href: "/send", key: "nav.send", need: "messages:send" },
  { href: "/broadcasts", key: "nav.broadcasts" },
  { href: "/templates", key: "nav.templates", need: "templates:read" },
  { href: "/contacts", key: "nav.contacts" },
  { href: "/labels", key: "nav.labels" },
  { href: "/saved-replies", key: "nav.savedReplies" },
  { href: "/history", key: "nav.history" },
  { href: "/reports", key: "nav.reports" },
  { href: "/audit", key: "nav.audit", need: "audit:read" },
  { href: "/settings", key: "nav.settings", need: "agents:read" },
];

/**
 * The app's header on every page: navigation, the API docs, language and sign-out. A visitor who
 * is not signed in (only /docs lets one in) gets the language switch and "Entrar" instead of the
 * agent's navigation, which would only lead to the sign-in page.
 */
export function AppHeader({ signedOutOk = false }: { signedOutOk?: boolean }) {
  const t = useT();
  const pathname = usePathname();
  const router = useRouter();
  const me = useMe({ signedOutOk });
  const logout = useLogout();
  const [open, setOpen] = useState(false);
  const signedOut = me.error instanceof ApiRequestError && me.error.status === 401;
  const onDocs = pathname.startsWith("/docs");

  return (
    <header className="bg-wa-green text-white shadow">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-2">
        <Link href="/inbox" className="font-semibold tracking-tight">
          {t("app.name")}
        </Link>
        {!signedOut && (
          <button
            type="button"
            className="ml-auto rounded px-2 py-1 text-sm ring-1 ring-white/50 md:hidden"
            aria-expanded={open}
            aria-controls="main-nav"
            onClick={() => setOpen((o) => !o)}
          >
            {t("nav.menu")}
          </button>
        )}
        {!signedOut && (
          <nav id="main-nav" aria-label={t("nav.main")} className={cx("w-full md:block md:w-auto", open ? "block" : "hidden")}>
            <ul className="flex flex-col gap-1 md:flex-row md:gap-1">
              {NAV.filter((item) => !item.need || !me.data?.role || allows({ role: me.data.role }, item.need)).map((item) => {
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
        )}
        {/* Signed out, the three items left fit a phone's width: no menu to open. */}
        <div
          className={cx(
            "flex-wrap items-center gap-3 md:ml-auto md:flex md:w-auto",
            signedOut ? "ml-auto flex" : open ? "flex w-full" : "hidden w-full",
          )}
        >
          {me.data ? (
            <span className="text-sm" data-testid="agent-name">
              {me.data.name}
            </span>
          ) : signedOut ? null : (
            <Skeleton className="h-4 w-20 bg-white/30" />
          )}
          <a
            href="/docs"
            aria-current={onDocs ? "page" : undefined}
            className={cx("rounded px-2 py-1 text-sm", onDocs ? "bg-wa-green-dark font-semibold" : "hover:bg-white/10")}
            data-testid="docs-link"
          >
            {t("nav.docs")}
          </a>
          <LanguageSwitch />
          {signedOut ? (
            <Link
              href={`/login?next=${encodeURIComponent(pathname)}`}
              className="rounded px-2 py-1 text-sm ring-1 ring-white/60 hover:bg-white/10"
              data-testid="sign-in-link"
            >
              {t("nav.signIn")}
            </Link>
          ) : (
            <button
              type="button"
              className="rounded px-2 py-1 text-sm ring-1 ring-white/60 hover:bg-white/10"
              onClick={() => logout.mutate(undefined, { onSettled: () => router.replace("/login") })}
            >
              {t("nav.logout")}
            </button>
          )}
        </div>
      </div>
    </header>
  );
}
