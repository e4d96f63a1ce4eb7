import { NextResponse, type NextRequest } from "next/server";
import { newNonce, pageContentSecurityPolicy, REFERRER_POLICY } from "@/lib/http/security-headers";

/**
 * Pages get a Content-Security-Policy with a fresh nonce per response (DESIGN.md §15). Next reads
 * the nonce from the request's policy header and puts it on every script it renders; the root
 * layout renders per request so there is one to put. API routes are left alone (their media
 * downloads set their own sandbox policy; `nosniff` comes from next.config.mjs for everything).
 */
export function proxy(request: NextRequest) {
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
    {
      source: "/((?!api/|_next/static|_next/image|favicon\\.ico).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
  ],
};
