/**
 * Same-origin paths only (no open redirect, no link that looks local but is not). A value is
 * resolved against an origin exactly as the browser would resolve it (`/\evil.example/x` and
 * `/<TAB>/evil.example` both become `http://evil.example/…`), and only a result on that same
 * origin is accepted. The answer is the normalised path (path, query and fragment), never the
 * raw input, so what is checked is what is followed.
 *
 * Pure: no window, no settings; the browser passes its own origin, the rest may use the default.
 */

/** Stands in for our own origin when none is given: a path that stays on it stays on ours. */
const SELF = "http://self.invalid";

export function sameOriginPath(value: unknown, origin: string = SELF): string | null {
  if (typeof value !== "string" || !value.startsWith("/")) return null;
  let base: URL;
  let url: URL;
  try {
    base = new URL(origin);
    url = new URL(value, base);
  } catch {
    return null;
  }
  if (url.origin !== base.origin) return null;
  return url.pathname + url.search + url.hash;
}

/** The landing page of a signed-in agent. */
export const LANDING_PATH = "/inbox";

/**
 * Where to go after signing in: the `next` parameter when it is a same-origin path (and not the
 * sign-in page itself), else the landing page.
 */
export function postLoginPath(next: unknown, origin: string): string {
  const path = sameOriginPath(next, origin);
  if (!path || path === "/login" || path.startsWith("/login?") || path.startsWith("/login/") || path.startsWith("/login#"))
    return LANDING_PATH;
  return path;
}
