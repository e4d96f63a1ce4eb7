import { NextResponse, type NextRequest } from "next/server";

/**
 * The name of an agent's session cookie, as lib/auth/authenticate.ts sets and reads it
 * (SESSION_COOKIE; tests/security/signed-out-pages.test.ts holds the two equal). Written here so
 * that proxy.ts does not load the authentication module and its database client.
 */
export const SESSION_COOKIE_NAME = "wa_session";

/**
 * The dashboard's pages (app/(dashboard), every folder of it: the same test checks), `/` and the
 * history viewer's old name: shown only to a signed-in agent.
 */
export const DASHBOARD_PAGES = [
  "/",
  "/inbox",
  "/history",
  "/conversations",
  "/send",
  "/broadcasts",
  "/templates",
  "/contacts",
  "/labels",
  "/reports",
  "/saved-replies",
  "/audit",
  "/settings",
] as const;

function isDashboardPage(pathname: string): boolean {
  return DASHBOARD_PAGES.some((p) => (p === "/" ? pathname === "/" : pathname === p || pathname.startsWith(`${p}/`)));
}

/**
 * A visitor without a session cookie who asks for a dashboard page is sent to the sign-in page by
 * the server, before any of the page is sent: the frame no longer renders, asks /api/v1 four times
 * and learns from four 401s that nobody is signed in. `next` brings the agent back after signing
 * in (`/` needs none: the inbox is where signing in leads). A cookie that is present but expired
 * still reaches the page, whose frame sends the agent to sign in on its first 401
 * (components/layout/app-shell.tsx): telling a live session from a dead one takes the database.
 */
export function signInFirst(request: NextRequest): NextResponse | null {
  const { pathname, search } = request.nextUrl;
  if (request.cookies.has(SESSION_COOKIE_NAME) || !isDashboardPage(pathname)) return null;
  const to = new URL("/login", request.nextUrl);
  if (pathname !== "/") to.searchParams.set("next", pathname + search);
  return NextResponse.redirect(to, 307);
}
