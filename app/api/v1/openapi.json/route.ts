import { withErrors } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { getOpenApiDocument } from "@/lib/openapi/document";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

/** Public: the contract is no secret, and integrators fetch it before they have a token. */
export const GET = withErrors(async () => json(getOpenApiDocument(), 200, { "cache-control": "public, max-age=300" }));

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
