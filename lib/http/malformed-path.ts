import { json } from "./respond";

export const MALFORMED_URL = "La URL de la solicitud no es válida.";

/**
 * Next decodes every dynamic segment before it calls a route handler, and a malformed
 * percent-encoding (`/api/v1/updates/%ZZ`, `/api/v1/media/%`) makes it answer a bare 500 page
 * before our code runs. proxy.ts calls this first: such an /api path gets the ruled 400 body.
 */
export function rejectMalformedPath(req: Request): Response | undefined {
  let pathname: string;
  try {
    pathname = new URL(req.url).pathname;
  } catch {
    return json({ message: MALFORMED_URL }, 400);
  }
  if (!pathname.startsWith("/api/")) return undefined;
  for (const segment of pathname.split("/")) {
    if (!segment.includes("%")) continue;
    try {
      decodeURIComponent(segment);
    } catch {
      return json({ message: MALFORMED_URL }, 400);
    }
  }
  return undefined;
}
