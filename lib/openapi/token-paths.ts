import { z } from "@/lib/http/zod-es";
import { errors, ok, jsonContent, type Operation } from "./helpers";
import {
  apiTokenResponse,
  createdTokenResponse,
  createTokenBody,
  listTokensResponse,
  rollTokenBody,
  rolledTokenResponse,
} from "@/lib/api-tokens/schemas";

/** The team's API tokens (lib/api-tokens, docs/features/api-tokens.md), spread into the document's paths. */
const tokenPath = z.object({ tokenId: z.string().meta({ description: "Id entero del token" }) });

export const tokenPaths: Record<string, Partial<Record<"get" | "post" | "delete", Operation>>> = {
  "/api/v1/tokens": {
    get: {
      tags: ["Tokens de API"],
      summary: "Los tokens de API del equipo (lo más nuevo primero), sin sus secretos",
      description:
        "Propietarios, administradores y supervisores; con un token, el alcance `tokens_admin`. Cada token con su prefijo, " +
        "alcances, quién y cuándo lo creó, su último uso (al minuto), su vencimiento, su revocación y, si se renovó, " +
        "el que lo reemplazó y hasta cuándo sigue valiendo.",
      responses: { ...ok(listTokensResponse), ...errors() },
    },
    post: {
      tags: ["Tokens de API"],
      summary: "Crear un token de API (el secreto aparece solo en esta respuesta)",
      description:
        "Propietarios y administradores; con un token, el alcance `tokens_admin`, y solo con alcances que ese token tiene " +
        "(403 si no). `expires_at` opcional, en el futuro: desde entonces el token recibe 401 con un mensaje que lo dice. " +
        "El secreto (`wam_…`) no se guarda: solo su hash.",
      requestBody: { content: jsonContent(createTokenBody) },
      responses: {
        "201": { description: "Creado", content: jsonContent(createdTokenResponse) },
        ...errors("400", "415", "422"),
      },
    },
  },
  "/api/v1/tokens/{tokenId}": {
    delete: {
      tags: ["Tokens de API"],
      summary: "Revocar un token de API",
      description:
        "Propietarios y administradores; con un token, el alcance `tokens_admin`. Se rechaza desde su siguiente solicitud en " +
        "todos los procesos, y sus flujos de eventos abiertos terminan en menos de un segundo. Revocarlo otra vez no cambia nada.",
      requestParams: { path: tokenPath },
      responses: { ...ok(apiTokenResponse), ...errors("404") },
    },
  },
  "/api/v1/tokens/{tokenId}/roll": {
    post: {
      tags: ["Tokens de API"],
      summary: "Renovar un token: uno nuevo con el mismo nombre, alcances y vencimiento",
      description:
        "El secreto nuevo aparece solo en esta respuesta. El anterior sigue valiendo `overlap_hours` horas (0 a 168) y luego " +
        "recibe 401; con 0 se revoca en el acto. Con un token, solo se renueva un token cuyos alcances tiene (403). 409 si el " +
        "token está revocado, vencido o ya renovado.",
      requestParams: { path: tokenPath },
      requestBody: { content: jsonContent(rollTokenBody) },
      responses: {
        "201": { description: "Renovado", content: jsonContent(rolledTokenResponse) },
        ...errors("400", "404", "409", "415", "422"),
      },
    },
  },
};
