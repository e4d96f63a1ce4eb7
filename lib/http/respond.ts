import { ZodError } from "zod";
import { ApiError, type FieldErrors } from "./errors";

/** JSON response with the headers every API answer carries. */
export function json(body: unknown, status = 200, headers?: HeadersInit): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store", ...headers },
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

/** The one place that turns any thrown value into the ruled error body (DESIGN rulings 1–2). */
export function toErrorResponse(err: unknown): Response {
  if (err instanceof ApiError) {
    const body: { message: string; errors?: FieldErrors } = { message: err.message };
    if (err.errors) body.errors = err.errors;
    return json(body, err.status, err.headers);
  }
  if (err instanceof ZodError) {
    const errors = zodFieldErrors(err);
    return json({ message: err.issues[0]?.message ?? "Datos inválidos.", errors }, 422);
  }
  console.error("[api] unhandled error", err);
  return json({ message: "Error interno del servidor." }, 500);
}
