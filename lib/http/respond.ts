import { randomUUID } from "node:crypto";
import { ZodError } from "zod";
import { ApiError, type FieldErrors } from "./errors";
import { connectionLost } from "@/db/errors";
import { logUnexpected, routePattern } from "./log-error";
import { API_SECURITY_HEADERS } from "./security-headers";

export const SERVICE_UNAVAILABLE = "El servicio no está disponible en este momento. Intente de nuevo en unos segundos.";
/** Seconds a client should wait after a lost database connection (postgres.js reconnects on the next query). */
export const UNAVAILABLE_RETRY_AFTER_S = 5;

/** JSON response with the headers every API answer carries. */
export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...API_SECURITY_HEADERS, ...headers },
  });
}

/** Flattens zod issues into `{field: [messages]}`, keeping the schema's order. */
export function zodFieldErrors(error: ZodError): FieldErrors {
  const errors: FieldErrors = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.map(String).join(".") : "body";
    (errors[key] ??= []).push(issue.message);
  }
  return errors;
}

/**
 * The one place that turns any thrown value into the ruled error body (docs/architecture.md, rulings 1–2). An
 * unexpected error answers 500 with a request id (body `request_id` and `X-Request-Id`) that the
 * log line carries too, with the route's pattern and the error (log-error.ts: never request data).
 * A lost database connection is not a fault of the request: 503 with `Retry-After`, logged the
 * same way so an outage shows in the log.
 */
export function toErrorResponse(err: unknown, at?: { req?: Request; params?: Record<string, string | string[]> }): Response {
  if (err instanceof ApiError) {
    const body: { message: string; errors?: FieldErrors } = { message: err.message };
    if (err.errors) body.errors = err.errors;
    return json(body, err.status, err.headers);
  }
  if (err instanceof ZodError) {
    const errors = zodFieldErrors(err);
    return json({ message: err.issues[0]?.message ?? "Datos inválidos.", errors }, 422);
  }
  const requestId = randomUUID();
  if (connectionLost(err)) {
    logUnexpected(requestId, at?.req?.method ?? "?", routePattern(at?.req, at?.params), err, 503);
    return json({ message: SERVICE_UNAVAILABLE }, 503, {
      "retry-after": String(UNAVAILABLE_RETRY_AFTER_S),
      "x-request-id": requestId,
    });
  }
  logUnexpected(requestId, at?.req?.method ?? "?", routePattern(at?.req, at?.params), err);
  return json({ message: "Error interno del servidor.", request_id: requestId }, 500, { "x-request-id": requestId });
}
