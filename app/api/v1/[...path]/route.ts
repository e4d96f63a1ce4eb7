import { ApiError, ROUTE_NOT_FOUND } from "@/lib/http/errors";
import { toErrorResponse } from "@/lib/http/respond";

export const dynamic = "force-dynamic";

/**
 * Any /api/v1 path no route matches (Next tries every other route first): the API's own JSON 404
 * with the API's headers, for every method, instead of Next's HTML page.
 */
function notFound(): Response {
  return toErrorResponse(ApiError.notFound(ROUTE_NOT_FOUND));
}

export const GET = notFound;
export const HEAD = notFound;
export const POST = notFound;
export const PUT = notFound;
export const PATCH = notFound;
export const DELETE = notFound;
export const OPTIONS = notFound;
