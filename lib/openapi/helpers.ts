import type { ZodOpenApiOperationObject, ZodOpenApiResponsesObject } from "zod-openapi";
import type { z } from "zod";
import { errorSchema } from "@/lib/http/list-query";

/** Small builders so each path of the OpenAPI document (document.ts) reads as one line per fact. */
export function jsonContent(schema: z.ZodType) {
  return { "application/json": { schema } };
}

export function ok(schema: z.ZodType, description = "OK"): ZodOpenApiResponsesObject {
  return { "200": { description, content: jsonContent(schema) } };
}

/** Every operation that needs a caller may answer 403 (docs/roles.md); a send also for another team's media_path. */
export const FORBIDDEN_DESCRIPTION =
  'Rol del agente o alcance del token insuficiente (`{"message":"Tu rol no permite esta acción."}` o `"El token no tiene el permiso necesario: <alcance>."`); en un envío, `media_path` de otro equipo';

const errorDescriptions: Record<string, string> = {
  "400": "JSON mal formado",
  "401":
    'Token ausente, inválido o revocado: `{"message":"Unauthenticated."}`; un token vencido, un token renovado pasado su periodo de transición ' +
    "y una sesión cerrada por el límite de sesiones del agente lo explican en `message`",
  "403": FORBIDDEN_DESCRIPTION,
  "404": "Recurso inexistente (o de otro equipo)",
  "409": "Cambio no válido en el estado actual (p. ej. reanudar una difusión que no está pausada)",
  "413": "Cuerpo demasiado grande",
  "415": "Content-Type distinto de application/json",
  "422": "Parámetros inválidos: `{message, errors: {campo: [mensajes]}}`; `message` es el texto exacto del primer error",
  "429": "Límite de solicitudes superado (Retry-After)",
  "502": "Meta no respondió o falló (un tiempo de espera, un 5xx): no se cambió nada; se puede repetir",
  "503": "Servicio ocupado (Retry-After)",
};

export function errors(...codes: string[]): ZodOpenApiResponsesObject {
  const out: Record<string, { description: string; content: ReturnType<typeof jsonContent> }> = {};
  for (const code of ["401", ...codes, "429"]) {
    out[code] = { description: errorDescriptions[code] ?? code, content: jsonContent(errorSchema) };
  }
  return out as ZodOpenApiResponsesObject;
}

export type Operation = ZodOpenApiOperationObject;
