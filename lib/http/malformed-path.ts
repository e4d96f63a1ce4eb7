import { json } from "./respond";
import { newNonce, pageContentSecurityPolicy, REFERRER_POLICY } from "./security-headers";

export const MALFORMED_URL = "La URL de la solicitud no es válida.";

/**
 * Whether a URL's path holds a malformed percent-encoding (`%ZZ`, a lone `%`, a cut UTF-8
 * sequence). Next decodes every dynamic segment before it calls a route handler or renders a
 * page, and such a path makes it answer a bare text/plain 500, without our headers, before our
 * code runs. proxy.ts asks this first for API paths and pages alike.
 */
export function hasMalformedPath(req: Request): boolean {
  let pathname: string;
  try {
    pathname = new URL(req.url).pathname;
  } catch {
    return true;
  }
  for (const segment of pathname.split("/")) {
    if (!segment.includes("%")) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      return true;
    }
  }
  return false;
}

/** An /api path with a malformed segment: the ruled JSON 400 body (with the API's headers). */
export function rejectMalformedPath(req: Request): Response | undefined {
  if (!hasMalformedPath(req)) return undefined;
  return json({ message: MALFORMED_URL }, 400);
}

// A static page: no script, nothing to load, so its policy's nonce is never used.
const BAD_REQUEST_PAGE = `<!doctype html>
<html lang="es"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Solicitud no válida</title></head>
<body><main><h1>Solicitud no válida</h1><p>${MALFORMED_URL}</p><p><a href="/">Volver al inicio</a></p></main></body></html>
`;

/** A page path with a malformed segment: a 400 HTML page with the pages' security headers. */
export function rejectMalformedPage(req: Request): Response | undefined {
  if (!hasMalformedPath(req)) return undefined;
  return new Response(BAD_REQUEST_PAGE, {
    status: 400,
    headers: {
      "content-type": "text/html; charset=utf-8",
      "cache-control": "no-store",
      "content-security-policy": pageContentSecurityPolicy(newNonce()),
      "referrer-policy": REFERRER_POLICY,
      "x-content-type-options": "nosniff",
    },
  });
}
