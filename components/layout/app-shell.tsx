"use client";
import { usePathname, useRouter } from "next/navigation";
import { useEffect, type ReactNode } from "react";
import { useMe } from "@/lib/api-client/auth";
import { ApiRequestError } from "@/lib/api-client/fetch";
import { LiveEventsProvider } from "@/lib/api-client/live-stream";
import { cx, ErrorBox } from "@/components/ui";
import { AppHeader } from "./app-header";
import { SkipToContent } from "./skip-to-content";
import { TabTitle } from "./tab-title";

/**
 * Dashboard frame: checks the session (→ /login on 401), then the app's header and the page, and
 * holds the tab's one live event stream for the pages that are live (lib/api-client/live-stream.tsx).
 */
export function AppShell({ children }: { children: ReactNode }) {
  const pathname = usePathname();
  const router = useRouter();
  const me = useMe();
  const unauthenticated = me.error instanceof ApiRequestError && me.error.status === 401;

  useEffect(() => {
    if (unauthenticated) router.replace(`/login?next=${encodeURIComponent(pathname)}`);
  }, [unauthenticated, router, pathname]);

  // The inbox is exactly the window's height (its panes scroll inside); other pages grow with their content.
  const fitted = pathname.startsWith("/inbox");
  return (
    <LiveEventsProvider>
      <div className={cx("flex flex-col", fitted ? "h-dvh" : "min-h-dvh")}>
        <TabTitle />
        <SkipToContent />
        <AppHeader />
        {/* The inbox fills what the header leaves of the window (a column it grows in), whatever the
          header's height: a page taller than the window lets the wheel scroll the inbox away. */}
        <main id="main" className={cx("mx-auto w-full max-w-7xl flex-1 px-4 py-6", fitted && "flex min-h-0 flex-col")}>
          {me.error && !unauthenticated ? <ErrorBox error={me.error} onRetry={() => me.refetch()} /> : children}
        </main>
      </div>
    </LiveEventsProvider>
  );
}
