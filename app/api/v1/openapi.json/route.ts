import { withErrors } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { getOpenApiDocument } from "@/lib/openapi/document";

/** Public: the contract is no secret, and integrators fetch it before they have a token. */
export const GET = withErrors(async () => json(getOpenApiDocument(), 200, { "cache-control": "public, max-age=300" }));
