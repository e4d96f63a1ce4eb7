import { z } from "@/lib/http/zod-es";
import { overlapHours } from "@/lib/http/overlap-hours";
// The overlap's rule and text are shared with the other roll (lib/http/overlap-hours.ts).
export { MAX_OVERLAP_HOURS, OVERLAP_INVALID } from "@/lib/http/overlap-hours";
import { listResponse, pageQuery } from "@/lib/http/list-query";
import { EVENT_TYPES } from "@/lib/events/catalogue";
import { webhookDeliverySchema } from "@/lib/outgoing-webhooks/schemas";

/**
 * The team's webhook endpoints, administered from /settings/webhooks and /api/v1/webhook_endpoints
 * (docs/features/outgoing-webhooks.md): shapes shared by the routes, the settings page and the
 * OpenAPI document. The signing secret is in an answer once, when it is made or rolled.
 */
export const ENDPOINT_NOT_FOUND = "Endpoint de webhook no encontrado.";
export const DELIVERY_NOT_FOUND = "Entrega de webhook no encontrada.";
export const ENDPOINT_DISABLED = "El endpoint está desactivado: actívelo antes de reenviar entregas.";
export const DESCRIPTION_MAX = 500;
export const ALL_EVENTS = "*";
export const EVENT_CHOICES = [ALL_EVENTS, ...EVENT_TYPES] as const;
export const EVENTS_INVALID = `El campo events solo admite: ${EVENT_CHOICES.join(", ")}.`;
export const EVENTS_REQUIRED = "El campo events debe tener al menos un tipo de evento.";
export const SINCE_INVALID = "El campo since debe ser una fecha y hora ISO 8601 con zona horaria (2026-12-31T23:59:00Z).";
export const PATCH_EMPTY = "Indique al menos un campo: url, description, events o enabled.";

const eventChoice = z.enum(EVENT_CHOICES, { error: EVENTS_INVALID });

/**
 * http(s) only: the worker POSTs events there. Client-safe, so the page's form checks the same; the
 * address rule (internal addresses, credentials) needs node:net and is applied by the service
 * (lib/outgoing-webhooks/url-policy.ts), and again at every delivery after DNS.
 */
const url = z
  .string({ error: (iss) => (iss.input === undefined ? "El campo url es obligatorio." : "El campo url debe ser una cadena de texto.") })
  .trim()
  .min(1, "El campo url es obligatorio.")
  .max(2000, "El campo url no puede tener más de 2000 caracteres.")
  .refine((s) => {
    try {
      return ["http:", "https:"].includes(new URL(s).protocol);
    } catch {
      return false;
    }
  }, "El campo url debe ser una URL http(s) válida.")
  .meta({
    description: "http(s); direcciones privadas o locales rechazadas salvo ALLOW_PRIVATE_WEBHOOK_URLS=1",
    example: "https://example.com/hooks/wa",
  });

const description = z
  .string({ error: "El campo description debe ser una cadena de texto." })
  .trim()
  .max(DESCRIPTION_MAX, `El campo description no puede tener más de ${DESCRIPTION_MAX} caracteres.`)
  .meta({ description: "Para qué es (solo para reconocerlo)" });

const events = z
  .array(eventChoice, { error: (iss) => (iss.input === undefined ? EVENTS_REQUIRED : "El campo events debe ser una lista.") })
  .min(1, EVENTS_REQUIRED)
  .max(EVENT_CHOICES.length, EVENTS_INVALID)
  // `*` alone when present; otherwise the catalogue's order, each once.
  .transform((list) => (list.includes(ALL_EVENTS) ? [ALL_EVENTS] : EVENT_TYPES.filter((t) => list.includes(t))))
  .meta({ description: "Tipos de evento que recibe (lib/events/catalogue.ts), o `*`: todos, también los que se añadan" });

export const createEndpointBody = z
  .object({ url, description: description.optional().default(""), events: events.optional().default([ALL_EVENTS]) })
  .meta({ id: "CreateWebhookEndpointRequest" });
export type CreateEndpointInput = z.output<typeof createEndpointBody>;

export const updateEndpointBody = z
  .object({
    url: url.optional(),
    description: description.optional(),
    events: events.optional(),
    enabled: z.boolean({ error: "El campo enabled debe ser true o false." }).optional(),
  })
  .refine((v) => Object.values(v).some((x) => x !== undefined), PATCH_EMPTY)
  .meta({ id: "UpdateWebhookEndpointRequest" });
export type UpdateEndpointInput = z.output<typeof updateEndpointBody>;

export const rollSecretBody = z
  .object({
    overlap_hours: overlapHours("Horas que el secreto anterior sigue firmando junto al nuevo (0: deja de firmar ya)"),
  })
  .meta({ id: "RollWebhookSecretRequest" });

export const resendFailedBody = z
  .object({
    since: z
      .string({ error: SINCE_INVALID })
      .refine((s) => z.iso.datetime({ offset: true }).safeParse(s).success, SINCE_INVALID)
      .meta({ description: "Las entregas fallidas creadas desde entonces", example: "2026-12-01T00:00:00Z" }),
  })
  .meta({ id: "ResendFailedWebhookDeliveriesRequest" });

/** The settings page's form: the same fields, the URL as typed and the boxes ticked. */
export const endpointFormSchema = z.object({ url, description, events });
export type EndpointFormValues = z.input<typeof endpointFormSchema>;

export const webhookEndpointSchema = z
  .object({
    id: z.number().int(),
    url: z.string(),
    description: z.string(),
    events: z.array(eventChoice),
    enabled: z.boolean(),
    disabled_reason: z
      .enum(["manual", "failing"])
      .nullable()
      .meta({ description: "manual: lo desactivó alguien; failing: falló sin una sola entrega durante 3 días" }),
    disabled_at: z.string().nullable(),
    failing_since: z.string().nullable().meta({ description: "Primer fallo desde la última entrega correcta; null si entrega bien" }),
    previous_secret_expires_at: z
      .string()
      .nullable()
      .meta({ description: "Tras renovar el secreto: hasta cuándo el anterior también firma (dos firmas en X-Signature-256)" }),
    created_by: z.object({ kind: z.enum(["agent", "token", "system"]), id: z.number().int().nullable(), name: z.string() }),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "WebhookEndpoint" });
export type WebhookEndpointDto = z.infer<typeof webhookEndpointSchema>;

const withSecret = z
  .object({
    secret: z.string().meta({ description: "El secreto de firma (`whsec_…`): solo aparece en esta respuesta; se guarda cifrado" }),
    endpoint: webhookEndpointSchema,
  })
  .meta({ id: "WebhookEndpointWithSecret" });
export type EndpointWithSecretDto = z.infer<typeof withSecret>;

export const listEndpointsResponse = z
  .object({ message: z.string(), data: z.array(webhookEndpointSchema) })
  .meta({ id: "ListWebhookEndpointsResponse" });
export const endpointResponse = z.object({ message: z.string(), data: webhookEndpointSchema }).meta({ id: "WebhookEndpointResponse" });
export const endpointWithSecretResponse = z
  .object({ message: z.string(), data: withSecret })
  .meta({ id: "WebhookEndpointWithSecretResponse" });

export const DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;
export const listEndpointDeliveriesQuery = pageQuery({ max: 100, fallback: 20 })
  .extend({ status: z.enum(DELIVERY_STATUSES, { error: `El campo status solo admite: ${DELIVERY_STATUSES.join(", ")}.` }).optional() })
  .meta({ id: "ListWebhookEndpointDeliveriesQuery" });
export const listEndpointDeliveriesResponse = listResponse(webhookDeliverySchema).meta({ id: "ListWebhookEndpointDeliveriesResponse" });
export const deliveryResponse = z.object({ message: z.string(), data: webhookDeliverySchema }).meta({ id: "WebhookDeliveryResponse" });
export const resendFailedResponse = z
  .object({ message: z.string(), data: z.object({ resent: z.number().int() }) })
  .meta({ id: "ResendFailedWebhookDeliveriesResponse" });
