/**
 * Security headers (docs/operations.md, "Security"): the pages' Content-Security-Policy with a per-request nonce
 * (set by proxy.ts), and the headers of every media download. Pure functions, no settings.
 */

/** A fresh nonce for one page response: 128 random bits, base64. */
export function newNonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The pages' policy. Scripts run only with this response's nonce (Next puts it on its own
 * scripts; `'strict-dynamic'` lets them load the app's chunks). Style sheets and `<style>` come
 * from us or carry the nonce; `style` *attributes* are allowed (`style-src-attr`): React writes
 * them into server-rendered HTML (the label form's colour preview), where a nonce cannot go, and an
 * attribute can neither run script nor select other elements. Images and media may come from any
 * https origin because payloads point at them (their URLs pass safeUrl first); no plugins, no
 * `<base>`, no framing, forms post only to us. Development (`next dev`) adds `'unsafe-eval'`, which
 * React needs there for its error overlays, and inline `<style>` for Next's development tools.
 */
export function pageContentSecurityPolicy(nonce: string, { dev = false }: { dev?: boolean } = {}): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${dev ? " 'unsafe-eval'" : ""}`,
    // Next's development overlay injects <style> elements without the nonce.
    dev ? "style-src 'self' 'unsafe-inline'" : `style-src 'self' 'nonce-${nonce}'`,
    "style-src-attr 'unsafe-inline'",
    "img-src 'self' https: data: blob:",
    "media-src 'self' https: blob:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Pages never tell other sites which page (and which customer number in it) linked to them. */
export const REFERRER_POLICY = "same-origin";

/**
 * Headers of a stored or relayed file: never sniffed into something else, never run as a page of
 * our origin (`sandbox`: no scripts, no forms, no plugins, an opaque origin). Audio and video keep
 * their origin inside the sandbox, still without scripts: Chromium's player page fetches the bytes
 * from the document's origin, and an opaque one is refused (the file would not play when opened
 * in a tab). Images and PDFs display with the plain sandbox.
 */
export function mediaSecurityHeaders(contentType: string): Record<string, string> {
  const av = /^(audio|video)\//i.test(contentType.trim());
  return {
    "content-security-policy": av ? "sandbox allow-same-origin" : "sandbox",
    "x-content-type-options": "nosniff",
  };
}

/**
 * Headers of every JSON answer of the API (respond.ts `json`), including the catch-all 404 of
 * unknown /api/v1 paths: a JSON body is never a document, so it may load nothing, be framed
 * nowhere, and send no referrer. `nosniff` comes from next.config.mjs for every response.
 */
export const API_SECURITY_HEADERS: Readonly<Record<string, string>> = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "referrer-policy": REFERRER_POLICY,
};
