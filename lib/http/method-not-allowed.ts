import { ApiError } from "./errors";
import { toErrorResponse } from "./respond";

export const METHOD_NOT_ALLOWED = "Método no permitido en esta ruta.";

/**
 * The handler a route exports for the methods it does not serve: the API's JSON 405 with `Allow`
 * (Next's own 405 is an empty body without the API's headers).
 */
export function methodNotAllowed(allowed: readonly string[]) {
  return async (): Promise<Response> => toErrorResponse(new ApiError(405, METHOD_NOT_ALLOWED, undefined, { allow: allowed.join(", ") }));
}
