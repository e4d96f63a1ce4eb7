import { z } from "@/lib/http/zod-es";
import { errors, ok, jsonContent, type Operation } from "./helpers";
import {
  botSettingsResponse,
  botWithSecretResponse,
  createBotInput,
  listBotsQuery,
  listBotsResponse,
  updateBotInput,
} from "@/lib/bots/schemas";
import {
  campaignSettingsResponse,
  campaignWithSecretResponse,
  createCampaignInput,
  listCampaignsQuery,
  listCampaignsResponse,
  updateCampaignInput,
} from "@/lib/campaigns/schemas";
import { routingRulesResponse, routingTestInput, routingTestResponse } from "@/lib/routing/schemas";

/**
 * Bots, campaigns and the reply routing as settings (lib/bots, lib/campaigns, lib/routing;
 * docs/features/routing.md), spread into the document's paths. The lists are the send catalogue.
 */
const botPath = z.object({ botId: z.string().meta({ description: "Id entero del bot" }) });
const campaignPath = z.object({ campaignId: z.string().meta({ description: "Id entero de la campaña" }) });
const TAG = "Enrutamiento";
const ADMINS = "Propietarios y administradores; con un token, el alcance `webhooks_admin`. ";
const SECRET_ONCE =
  "Con `webhook_url` se genera un secreto de firma (`X-Signature-256` de cada entrega): aparece solo en esta respuesta (`webhook_secret`); " +
  "después solo `has_webhook_secret`. ";

export const routingPaths: Record<string, Partial<Record<"get" | "post" | "patch" | "delete", Operation>>> = {
  "/api/v1/bots": {
    get: {
      tags: ["Catálogos"],
      summary: "Bots",
      requestParams: { query: listBotsQuery },
      responses: { ...ok(listBotsResponse), ...errors("422") },
    },
    post: {
      tags: [TAG],
      summary: "Crear un bot (el secreto de su webhook aparece solo en esta respuesta)",
      description: ADMINS + SECRET_ONCE + "`is_default: true` le quita la marca al bot predeterminado anterior.",
      requestBody: { content: jsonContent(createBotInput) },
      responses: { "201": { description: "Creado", content: jsonContent(botWithSecretResponse) }, ...errors("400", "415", "422") },
    },
  },
  "/api/v1/bots/{botId}": {
    patch: {
      tags: [TAG],
      summary: "Cambiar un bot: nombre, predeterminado o URL del webhook",
      description:
        ADMINS +
        "`webhook_url: null` quita la URL y su secreto. Una URL donde no había genera un secreto, que aparece solo en esta respuesta " +
        "(`webhook_secret`; `null` si no se generó).",
      requestParams: { path: botPath },
      requestBody: { content: jsonContent(updateBotInput) },
      responses: { ...ok(botWithSecretResponse), ...errors("400", "404", "415", "422") },
    },
    delete: {
      tags: [TAG],
      summary: "Eliminar un bot",
      description: ADMINS + "409 si algún mensaje lo nombra (sus mensajes conservan su enrutamiento).",
      requestParams: { path: botPath },
      responses: { ...ok(botSettingsResponse), ...errors("404", "409") },
    },
  },
  "/api/v1/bots/{botId}/rotate-secret": {
    post: {
      tags: [TAG],
      summary: "Renovar el secreto del webhook de un bot (aparece solo en esta respuesta)",
      description: ADMINS + "El anterior deja de firmar en el acto. 409 si el bot no tiene `webhook_url`.",
      requestParams: { path: botPath },
      responses: { ...ok(botWithSecretResponse), ...errors("404", "409") },
    },
  },
  "/api/v1/campaigns": {
    get: {
      tags: ["Catálogos"],
      summary: "Campañas",
      requestParams: { query: listCampaignsQuery },
      responses: { ...ok(listCampaignsResponse), ...errors("422") },
    },
    post: {
      tags: [TAG],
      summary: "Crear una campaña (el secreto de su webhook aparece solo en esta respuesta)",
      description: ADMINS + SECRET_ONCE,
      requestBody: { content: jsonContent(createCampaignInput) },
      responses: { "201": { description: "Creada", content: jsonContent(campaignWithSecretResponse) }, ...errors("400", "415", "422") },
    },
  },
  "/api/v1/campaigns/{campaignId}": {
    patch: {
      tags: [TAG],
      summary: "Cambiar una campaña: nombre o URL del webhook",
      description:
        ADMINS +
        "`webhook_url: null` quita la URL y su secreto. Una URL donde no había genera un secreto, que aparece solo en esta respuesta.",
      requestParams: { path: campaignPath },
      requestBody: { content: jsonContent(updateCampaignInput) },
      responses: { ...ok(campaignWithSecretResponse), ...errors("400", "404", "415", "422") },
    },
    delete: {
      tags: [TAG],
      summary: "Eliminar una campaña",
      description: ADMINS + "409 si algún mensaje la nombra (sus mensajes conservan su enrutamiento).",
      requestParams: { path: campaignPath },
      responses: { ...ok(campaignSettingsResponse), ...errors("404", "409") },
    },
  },
  "/api/v1/campaigns/{campaignId}/rotate-secret": {
    post: {
      tags: [TAG],
      summary: "Renovar el secreto del webhook de una campaña (aparece solo en esta respuesta)",
      description: ADMINS + "El anterior deja de firmar en el acto. 409 si la campaña no tiene `webhook_url`.",
      requestParams: { path: campaignPath },
      responses: { ...ok(campaignWithSecretResponse), ...errors("404", "409") },
    },
  },
  "/api/v1/routing": {
    get: {
      tags: [TAG],
      summary: "Las reglas que enrutan una respuesta, en su orden, con los bots y campañas del equipo",
      description:
        ADMINS +
        "`attribution`: cómo se encuentra el mensaje que el cliente responde; `rules`: quién toma la respuesta, la primera regla que " +
        "se cumple. Cada mensaje entrante guarda `routed_to.reason` como `<attribution>:<rule>`.",
      responses: { ...ok(routingRulesResponse), ...errors() },
    },
  },
  "/api/v1/routing/test": {
    post: {
      tags: [TAG],
      summary: "¿Quién tomaría esta respuesta? (no guarda nada)",
      description:
        ADMINS +
        "Enruta un mensaje del cliente `from` al número `wa_number` con la misma función que los mensajes entrantes, sin guardarlo ni " +
        "encolar webhooks. `context_update_id`: el mensaje citado. El texto no cambia el destino (ninguna regla lo lee).",
      requestBody: { content: jsonContent(routingTestInput) },
      responses: { ...ok(routingTestResponse), ...errors("400", "415", "422") },
    },
  },
};
