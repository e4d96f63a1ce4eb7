/**
 * Same-origin paths only (no open redirect, no link that looks local but is not). A value is
 * resolved against an origin exactly as the browser would resolve it (`/\evil.example/x`,
 * `/<TAB>/evil.example`, and dot segments: `/.//evil.example` and `/%2e//evil.example` both
 * resolve to the path `//evil.example`), and only a result that is still a plain path on that
 * same origin is accepted. The answer is the normalised path (path, query and fragment), never
 * the raw input, so what is checked is what is followed.
 *
 * The one rule, checked on the result of every normalisation (the URL parser's, then a second
 * resolution of the answer itself, then percent-decoding as a router may do):
 *   - the resolved URL has our origin;
 *   - the answer resolves to itself again (a fixed point: `//evil.example` would not);
 *   - its decoded path has no backslash, no `//` and no control character.
 *
 * Pure: no window, no settings; the browser passes its own origin, the rest may use the default.
 */

/** Stands in for our own origin when none is given: a path that stays on it stays on ours. */
const SELF = "http://self.invalid";

// eslint-disable-next-line no-control-regex
const UNSAFE_DECODED = /[\\\u0000-\u001f\u007f]|\/\//;

/**
 * The path with its ASCII percent-escapes decoded (`%5C` → a backslash, `%2F` → `/`, `%00`): every
 * character that could turn a path into another host is ASCII. Never throws, so a path with a
 * broken UTF-8 escape (a stored file name) is still judged by the same rule.
 */
function decodedPath(pathname: string): string {
  return pathname.replace(/%([0-7][0-9a-f])/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

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
  const path = url.pathname + url.search + url.hash;
  // What we hand on is resolved again by whoever follows it: it must land on the same URL.
  let again: URL;
  try {
    again = new URL(path, base);
  } catch {
    return null;
  }
  if (again.href !== url.href) return null;
  if (UNSAFE_DECODED.test(decodedPath(url.pathname))) return null;
  return path;
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
