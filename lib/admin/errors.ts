import { ZodError } from "zod";
import { DataDirBusyError } from "@/db/client";
import { uniqueViolation } from "@/db/errors";
import { ApiError } from "@/lib/http/errors";
import { InvalidSettingsError } from "@/lib/config";

/** A failure the operator can act on; its message is printed as `{"error": …}`. */
export class AdminError extends Error {}

/** Whether `err` is a failure the operator caused and can act on (its message says it all, no stack). */
export function expectedAdminError(err: unknown): boolean {
  return (
    err instanceof AdminError ||
    err instanceof ApiError ||
    err instanceof DataDirBusyError ||
    err instanceof ZodError ||
    err instanceof InvalidSettingsError
  );
}

/** The Spanish one-line message for any failure of a command. */
export function adminErrorMessage(err: unknown): string {
  if (err instanceof AdminError || err instanceof ApiError || err instanceof DataDirBusyError || err instanceof InvalidSettingsError)
    return err.message;
  if (err instanceof ZodError) return err.issues[0]?.message ?? "Datos inválidos.";
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `Opción desconocida: ${quoted(message)}.`;
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") {
    const flag = quoted(message).replace(/ <value>$/, "");
    return /argument missing/.test(message) ? `La opción ${flag} requiere un valor.` : `La opción ${flag} no admite un valor.`;
  }
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return `Argumento inesperado: ${quoted(message)}.`;
  if (uniqueViolation(err)) return "Ya existe un registro con esos datos.";
  return `Error interno: ${message}`;
}

function quoted(message: string): string {
  return /'([^']+)'/.exec(message)?.[1] ?? message;
}
