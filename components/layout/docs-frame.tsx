"use client";
import type { ReactNode } from "react";
import { AppHeader } from "./app-header";
import { SkipToContent } from "./skip-to-content";

/**
 * /docs in the app's frame: the dashboard's header (navigation back to the app, the language
 * switch), for agents and for integrators who are not signed in alike (no redirect to /login).
 */
export function DocsFrame({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col">
      <SkipToContent />
      <AppHeader signedOutOk />
      <main id="main" className="mx-auto w-full max-w-5xl min-w-0 flex-1 px-4 py-6 text-slate-900">
        {children}
      </main>
    </div>
  );
}
