/** The message of the 404 for a path no route of /api/v1 matches. */
export const ROUTE_NOT_FOUND = "Ruta no encontrada.";

/**
 * The one error type of the service. Services throw it; `toErrorResponse` (respond.ts) turns it
 * into the ruled body `{message, errors?}` (docs/architecture.md, rulings 1–2).
 */
export type FieldErrors = Record<string, string[]>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly errors?: FieldErrors,
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = "ApiError";
  }

  /** 422 for one field: the message is that field's exact text. */
  static invalid(field: string, message: string): ApiError {
    return new ApiError(422, message, { [field]: [message] });
  }

  static badRequest(message: string): ApiError {
    return new ApiError(400, message);
  }

  static unauthenticated(): ApiError {
    return new ApiError(401, "Unauthenticated.");
  }

  static forbidden(message = "No tiene permiso para realizar esta acción."): ApiError {
    return new ApiError(403, message);
  }

  static notFound(message = "Recurso no encontrado."): ApiError {
    return new ApiError(404, message);
  }

  static conflict(message: string): ApiError {
    return new ApiError(409, message);
  }

  static tooLarge(message = "El cuerpo de la solicitud es demasiado grande."): ApiError {
    return new ApiError(413, message);
  }
}
