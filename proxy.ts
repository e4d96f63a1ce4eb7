import { NextResponse, type NextRequest } from "next/server";
import { rejectMalformedPage, rejectMalformedPath } from "@/lib/http/malformed-path";
import { newNonce, pageContentSecurityPolicy, REFERRER_POLICY } from "@/lib/http/security-headers";
import { signInFirst } from "@/lib/http/signed-out-pages";

/**
 * Runs before Next routes a request (Next 16's middleware).
 *
 * A malformed percent-encoding in a path segment answers 400 here, before Next decodes it (Next
 * itself would answer a bare text/plain 500 without our headers): API paths the ruled JSON body,
 * pages a small HTML page with the pages' security headers. API responses set their own headers
 * (respond.ts; media downloads their sandbox policy; `nosniff` comes from next.config.mjs).
 *
 * Pages get a Content-Security-Policy with a fresh nonce per response (docs/operations.md, "Security"). Next reads
 * the nonce from the request's policy header and puts it on every script it renders; the root
 * layout renders per request so there is one to put.
 *
 * A dashboard page asked for without a session cookie is redirected to the sign-in page here,
 * before anything renders (lib/http/signed-out-pages.ts).
 */
export function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith("/api/")) return rejectMalformedPath(request) ?? NextResponse.next();
  const malformed = rejectMalformedPage(request);
  if (malformed) return malformed;
  const signIn = signInFirst(request);
  if (signIn) return signIn;
  const policy = pageContentSecurityPolicy(newNonce(), { dev: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  requestHeaders.set("content-security-policy", policy);
  const response = NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("content-security-policy", policy);
  response.headers.set("referrer-policy", REFERRER_POLICY);
  return response;
}

export const config = {
  matcher: [
    // Only API paths holding a '%' (matched on the raw path, before Next decodes it) can be
    // malformed; every other API request skips the proxy, which cost a third of a millisecond of
    // CPU each (0.34 ms on the empty route, measured: bench/log/2026-11-25-inbox-and-broadcasts-quiet.md).
    "/api/:path(.*%.*)",
    {
      source: "/((?!api/|_next/static|_next/image|favicon\\.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
