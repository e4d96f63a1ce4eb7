import { z } from "@/lib/http/zod-es";
import { errors, ok, jsonContent, type Operation } from "./helpers";
import {
  createEndpointBody,
  deliveryResponse,
  endpointResponse,
  endpointWithSecretResponse,
  listEndpointDeliveriesQuery,
  listEndpointDeliveriesResponse,
  listEndpointsResponse,
  resendFailedBody,
  resendFailedResponse,
  rollSecretBody,
  updateEndpointBody,
} from "@/lib/webhook-endpoints/schemas";

/** The team's webhook endpoints (lib/webhook-endpoints, docs/features/outgoing-webhooks.md), spread into the document's paths. */
const endpointPath = z.object({ endpointId: z.string().meta({ description: "Id entero del endpoint" }) });
const deliveryPath = z.object({ deliveryId: z.string().meta({ description: "Id entero de la entrega" }) });
const tags = ["Webhooks"];
const WHO_READS = "Propietarios, administradores y supervisores; con un token, el alcance `webhooks_admin`.";
const WHO_WRITES = "Propietarios y administradores; con un token, el alcance `webhooks_admin`.";
const simple = z.object({ message: z.string() });

export const webhookEndpointPaths: Record<string, Partial<Record<"get" | "post" | "patch" | "delete", Operation>>> = {
  "/api/v1/webhook_endpoints": {
    get: {
      tags,
      summary: "Los endpoints de webhook del equipo (lo más nuevo primero), sin sus secretos",
      description: WHO_READS,
      responses: { ...ok(listEndpointsResponse), ...errors() },
    },
    post: {
      tags,
      summary: "Crear un endpoint de webhook (el secreto de firma aparece solo en esta respuesta)",
      description:
        `${WHO_WRITES} Cada evento del registro (los tipos de \`GET /api/v1/events\`) al que está suscrito llega como un POST JSON ` +
        "`{id, event, event_id, occurred_at, data}` firmado con `X-Signature-256: sha256=<hmac hex del cuerpo>`; se reintenta con espera creciente. " +
        "Direcciones privadas, locales o reservadas: 422 (salvo ALLOW_PRIVATE_WEBHOOK_URLS=1). Si falla sin una sola entrega durante 3 días, se desactiva (`disabled_reason: failing`).",
      requestBody: { content: jsonContent(createEndpointBody) },
      responses: { "201": { description: "Creado", content: jsonContent(endpointWithSecretResponse) }, ...errors("400", "415", "422") },
    },
  },
  "/api/v1/webhook_endpoints/{endpointId}": {
    get: {
      tags,
      summary: "Un endpoint de webhook",
      description: WHO_READS,
      requestParams: { path: endpointPath },
      responses: { ...ok(endpointResponse), ...errors("404") },
    },
    patch: {
      tags,
      summary: "Cambiar la URL, la descripción, los eventos o activar/desactivar un endpoint",
      description: `${WHO_WRITES} Activarlo borra el motivo de su desactivación y su racha de fallos.`,
      requestParams: { path: endpointPath },
      requestBody: { content: jsonContent(updateEndpointBody) },
      responses: { ...ok(endpointResponse), ...errors("400", "404", "415", "422") },
    },
    delete: {
      tags,
      summary: "Eliminar un endpoint y su registro de entregas",
      description: `${WHO_WRITES} Lo que quedaba en cola no se envía.`,
      requestParams: { path: endpointPath },
      responses: { ...ok(simple), ...errors("404") },
    },
  },
  "/api/v1/webhook_endpoints/{endpointId}/roll_secret": {
    post: {
      tags,
      summary: "Renovar el secreto de firma (el nuevo aparece solo en esta respuesta)",
      description:
        `${WHO_WRITES} Durante \`overlap_hours\` horas (0 a 168) cada entrega lleva dos firmas, la nueva primero: ` +
        "`X-Signature-256: sha256=<nueva>,sha256=<anterior>`; el receptor acepta cualquiera mientras cambia de secreto.",
      requestParams: { path: endpointPath },
      requestBody: { content: jsonContent(rollSecretBody) },
      responses: {
        "201": { description: "Renovado", content: jsonContent(endpointWithSecretResponse) },
        ...errors("400", "404", "415", "422"),
      },
    },
  },
  "/api/v1/webhook_endpoints/{endpointId}/deliveries": {
    get: {
      tags,
      summary: "Registro de entregas del endpoint: estado, intentos, próximo reintento, última respuesta y su duración, cuerpo",
      description: WHO_READS,
      requestParams: { path: endpointPath, query: listEndpointDeliveriesQuery },
      responses: { ...ok(listEndpointDeliveriesResponse), ...errors("404", "422") },
    },
  },
  "/api/v1/webhook_endpoints/{endpointId}/resend_failed": {
    post: {
      tags,
      summary: "Reenviar todas las entregas fallidas desde una fecha",
      description: `${WHO_WRITES} Vuelven a la cola con intentos nuevos y se firman con el secreto actual. 409 si el endpoint está desactivado.`,
      requestParams: { path: endpointPath },
      requestBody: { content: jsonContent(resendFailedBody) },
      responses: {
        "202": { description: "En cola", content: jsonContent(resendFailedResponse) },
        ...errors("400", "404", "409", "415", "422"),
      },
    },
  },
  "/api/v1/webhook_deliveries/{deliveryId}/resend": {
    post: {
      tags,
      summary: "Reenviar una entrega de webhook",
      description: `${WHO_WRITES} Vuelve a la cola ya, con intentos nuevos, firmada con el secreto actual. 409 si su endpoint está desactivado.`,
      requestParams: { path: deliveryPath },
      responses: { "202": { description: "En cola", content: jsonContent(deliveryResponse) }, ...errors("404", "409") },
    },
  },
};
