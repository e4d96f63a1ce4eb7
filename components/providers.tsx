"use client";
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { I18nProvider } from "@/lib/i18n";
import { ApiRequestError } from "@/lib/api-client/fetch";

// A session that expires mid-use sends the agent back to the sign-in page from any request, except
// the question "who is signed in?" of a page open to visitors (useMe's `signedOutOk`).
function onAuthError(err: unknown, meta?: Record<string, unknown>) {
  if (meta?.signedOutOk) return;
  if (err instanceof ApiRequestError && err.status === 401 && !window.location.pathname.startsWith("/login")) {
    window.location.assign(`/login?next=${encodeURIComponent(window.location.pathname + window.location.search)}`);
  }
}

export function Providers({ children }: { children: ReactNode }) {
  const [client] = useState(
    () =>
      new QueryClient({
        queryCache: new QueryCache({ onError: (err, query) => onAuthError(err, query.meta) }),
        mutationCache: new MutationCache({ onError: (err) => onAuthError(err) }),
        defaultOptions: {
          queries: {
            staleTime: 30_000,
            refetchOnWindowFocus: false,
            retry: (count, err) => !(err instanceof ApiRequestError && err.status >= 400 && err.status < 500) && count < 2,
          },
        },
      }),
  );
  return (
    <QueryClientProvider client={client}>
      <I18nProvider>{children}</I18nProvider>
    </QueryClientProvider>
  );
}
