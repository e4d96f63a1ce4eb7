// `/api/v1` itself: the same JSON 404 as any other path no route matches (the catch-all beside it
// needs at least one segment), never Next's HTML page. `/api/v1/` gets the same body
// from lib/http/request-line-guard.ts, before Next's trailing-slash redirect.
export { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } from "./[...path]/route";

export const dynamic = "force-dynamic";
