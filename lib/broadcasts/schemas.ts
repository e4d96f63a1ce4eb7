import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";
import { dateOutOfRange, isSupportedInstant, utcDayMs } from "@/lib/http/supported-dates";
import { audienceSchema } from "@/lib/audiences/schemas";
import { buttonParamsField, checkHandler, checkParams, sharedSendFields } from "@/lib/messages/send-schemas";

/**
 * The broadcast API (docs/features/broadcasts.md). One schema per request and
 * response shape, shared by the route handlers, the dashboard wizard and the OpenAPI document.
 */

export const BROADCAST_STATUSES = ["SCHEDULED", "SENDING", "PAUSED", "CANCELLED", "DONE"] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** The contact columns a parameter value may use; anything else inside `{{…}}` is refused. */
export const CONTACT_COLUMNS = ["name", "customer_id", "number"] as const;
export type ContactColumn = (typeof CONTACT_COLUMNS)[number];
/** `{{ name }}` etc. inside a parameter value (spaces allowed, as in templates). */
export const COLUMN_RE = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

export const unknownColumn = (column: string) =>
  `La columna {{${column}}} no existe: un parámetro solo puede usar {{name}}, {{customer_id}} o {{number}} del contacto.`;
export const LANGUAGE_MISMATCH = (template: string, language: string) =>
  `La plantilla ${template} no está disponible en el idioma ${language}.`;
export const SCHEDULED_AT_INVALID =
  "El campo scheduled_at debe ser una fecha y hora ISO 8601 con zona horaria (p. ej. 2026-01-31T09:00:00Z).";
export const BROADCAST_NAME_REQUIRED = "El campo name es obligatorio.";

// ---- POST /api/v1/broadcasts ----

/**
 * A parameter of the broadcast: `key` is the template's placeholder (`1` for `{{1}}`), as in the
 * single send (4.1). `index` is accepted for `key` (the first draft of BROADCAST-API.md). The
 * value may hold contact columns: `Hola {{name}}` is filled per recipient.
 */
const paramKey = z.union([z.string().trim().min(1).max(32), z.number().int().min(0).transform(String)]);
export const broadcastParam = z
  .preprocess(
    (v) => (v && typeof v === "object" && !("key" in v) && "index" in v ? { ...(v as object), key: (v as { index: unknown }).index } : v),
    z.object({
      key: paramKey,
      value: z
        .string()
        .min(1, { error: (iss) => `El campo ${(iss.path ?? []).map(String).join(".")} es obligatorio.` })
        .max(1024, { error: (iss) => `El campo ${(iss.path ?? []).map(String).join(".")} no puede tener más de 1024 caracteres.` }),
    }),
  )
  .meta({ id: "BroadcastParam" });
export type BroadcastParam = z.output<typeof broadcastParam>;

export const createBroadcastRequest = z
  .object({
    name: z
      .string({ error: BROADCAST_NAME_REQUIRED })
      .trim()
      .min(1, BROADCAST_NAME_REQUIRED)
      .max(255, "El campo name no puede tener más de 255 caracteres."),
    wa_number: sharedSendFields.wa_number,
    template_name: sharedSendFields.template_name,
    language: z.string().trim().max(16).nullish(),
    header_param: broadcastParam.nullish(),
    body_params: z
      .array(broadcastParam)
      .max(100)
      .nullish()
      .transform((v) => v ?? []),
    button_params: buttonParamsField,
    media_path: sharedSendFields.media_path,
    audience: audienceSchema,
    response_handler: sharedSendFields.response_handler,
    campaign_id: sharedSendFields.campaign_id,
    bot_id: sharedSendFields.bot_id,
    // Blank means "not given": the broadcast's name.
    sent_group: sharedSendFields.sent_group.transform((v) => v || null),
    scheduled_at: z
      .string()
      .trim()
      .nullish()
      .transform((v, ctx) => {
        if (!v) return null;
        // A day that exists (Date.parse reads 2026-02-30 as March 2).
        const ok =
          /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(v) &&
          utcDayMs(v.slice(0, 10)) !== null &&
          !Number.isNaN(Date.parse(v));
        if (!ok) {
          ctx.addIssue({ code: "custom", message: SCHEDULED_AT_INVALID });
          return z.NEVER;
        }
        // Inside the calendar the API supports (lib/http/supported-dates.ts), by its instant.
        if (!isSupportedInstant(Date.parse(v))) {
          ctx.addIssue({ code: "custom", message: dateOutOfRange("scheduled_at") });
          return z.NEVER;
        }
        return new Date(v);
      }),
  })
  .superRefine((v, ctx) => {
    checkHandler(v, ctx);
    // The single send's checks (repeated keys or buttons, values the channel refuses); a column
    // in a button value is checked as the word it stands for (`{{ name }}` is not whitespace).
    checkParams({ ...v, button_params: v.button_params.map((b) => ({ ...b, value: b.value.replace(COLUMN_RE, "x") })) }, ctx);
    const params: [string, BroadcastParam][] = [
      ...(v.header_param ? [["header_param", v.header_param] as [string, BroadcastParam]] : []),
      ...v.body_params.map((p, i) => [`body_params.${i}`, p] as [string, BroadcastParam]),
    ];
    const buttons = v.button_params.map(
      (b, i) => [`button_params.${i}`, { key: String(b.index), value: b.value }] as [string, BroadcastParam],
    );
    for (const [path, p] of [...params, ...buttons]) {
      for (const m of p.value.matchAll(COLUMN_RE)) {
        if (!(CONTACT_COLUMNS as readonly string[]).includes(m[1])) {
          ctx.addIssue({ code: "custom", path: [...path.split("."), "value"], message: unknownColumn(m[1]) });
        }
      }
    }
  })
  .meta({ id: "CreateBroadcastRequest" });
export type CreateBroadcastInput = z.output<typeof createBroadcastRequest>;
export type CreateBroadcastRequest = z.input<typeof createBroadcastRequest>;

// ---- The broadcast object ----

export const broadcastCounts = z
  .object({
    recipients: z.number().int().meta({ description: "Contactos de la audiencia procesados: mensajes en cola + rechazados." }),
    rejected: z.number().int().meta({ description: "Destinatarios rechazados por validación (sin mensaje)." }),
    queued: z.number().int(),
    sended: z.number().int(),
    sent: z.number().int(),
    delivered: z.number().int(),
    readed: z.number().int(),
    failed: z.number().int().meta({ description: "FAILED por el canal o la entrega (sin contar los cancelados)." }),
    cancelled: z
      .number()
      .int()
      .meta({ description: "No enviados porque la difusión se canceló (status FAILED, error «Difusión cancelada»)." }),
    replied: z.number().int().meta({ description: "Destinatarios enviados que escribieron después del envío." }),
  })
  .meta({
    id: "BroadcastCounts",
    description: "Cada mensaje cuenta una vez, en su estado actual (queued … readed, failed, cancelled); replied se cuenta aparte.",
  });
export type BroadcastCounts = z.infer<typeof broadcastCounts>;

export const failureByCode = z
  .object({ code: z.number().int().nullable(), title: z.string(), count: z.number().int() })
  .meta({ id: "BroadcastFailureByCode" });

export const messagingLimitWave = z
  .object({
    size: z.number().int().meta({ description: "Conversaciones nuevas de la ola" }),
    starts_at: z.string().meta({ description: "Cuándo se espera que empiece (estimación)" }),
  })
  .meta({ id: "MessagingLimitWave" });

/** A number's messaging limit now: its tier, the customers it counted in the rolling window, what is left. */
export const messagingLimitBudget = z
  .object({
    tier: z.string().nullable().meta({ description: "Nivel que Meta informó (TIER_250, TIER_1K, …); null si nunca lo informó" }),
    limit: z.number().int().nullable().meta({
      description: "Clientes únicos por ventana móvil que permite el nivel; null: sin límite que respetar (TIER_UNLIMITED o desconocido)",
    }),
    used: z.number().int().meta({
      description:
        "Clientes a los que el número envió una plantilla en la ventana, sin contar los que tienen la ventana de atención abierta",
    }),
    remaining: z.number().int().nullable(),
    window_hours: z.number().meta({ description: "La ventana móvil del límite (24 h)" }),
  })
  .meta({ id: "MessagingLimitBudget" });

/** How the rest of a broadcast fits its number's messaging limit: its waves and where it stands. */
export const messagingLimitPlan = messagingLimitBudget
  .extend({
    pending: z.number().int().meta({ description: "Mensajes en cola que aún abrirán una conversación" }),
    waiting: z.number().int().meta({ description: "De ellos, los que esperan a que la ventana libere cupo" }),
    next_wave_at: z.string().nullable().meta({ description: "Cuándo sale el siguiente que espera cupo" }),
    waves: z.array(messagingLimitWave).meta({ description: "Las olas de lo que falta, la primera con lo que queda del límite" }),
    finishes_at: z.string().nullable().meta({ description: "Inicio esperado de la última ola" }),
  })
  .meta({ id: "MessagingLimitPlan" });
export type MessagingLimitPlan = z.infer<typeof messagingLimitPlan>;

/** GET /api/v1/broadcasts/messaging-limit: what a broadcast of `recipients` from this number would do to its limit. */
export const messagingLimitPreviewQuery = z
  .object({
    wa_number: z
      .string({ error: "El campo wa_number es obligatorio." })
      .regex(/^\d{6,20}$/, { error: "El campo wa_number debe tener solo dígitos." })
      .meta({ description: "El número que enviaría (solo dígitos)" }),
    recipients: z.coerce
      .number({ error: "El campo recipients debe ser un número entero." })
      .int({ error: "El campo recipients debe ser un número entero." })
      .min(0, { error: "El campo recipients no puede ser negativo." })
      .max(10_000_000, { error: "El campo recipients no puede ser mayor que 10000000." })
      .default(0)
      .meta({ description: "Destinatarios de la difusión (el tamaño de la audiencia)" }),
    scheduled_at: z.iso
      .datetime({ offset: true, error: "El campo scheduled_at debe ser una fecha ISO 8601." })
      .optional()
      .meta({ description: "Cuándo empezaría (por defecto ahora)" }),
  })
  .meta({ id: "MessagingLimitPreviewQuery" });
export type MessagingLimitPreviewQuery = z.output<typeof messagingLimitPreviewQuery>;

export const messagingLimitPreview = messagingLimitBudget
  .extend({
    recipients: z.number().int(),
    waves: z.array(messagingLimitWave),
    finishes_at: z.string().nullable().meta({ description: "Inicio esperado de la última ola" }),
  })
  .meta({ id: "MessagingLimitPreview" });
export type MessagingLimitPreview = z.infer<typeof messagingLimitPreview>;
export const messagingLimitPreviewResponse = z
  .object({ message: z.string(), data: messagingLimitPreview })
  .meta({ id: "MessagingLimitPreviewResponse" });
export type MessagingLimitPreviewResponse = z.infer<typeof messagingLimitPreviewResponse>;
export const MESSAGING_LIMIT_FOUND = "Límite de mensajería obtenido correctamente.";

export const broadcastSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    wa_number: z.string(),
    template: z.object({ id: z.number().int(), name: z.string(), language: z.string() }),
    status: z.enum(BROADCAST_STATUSES),
    paused_reason: z.string().nullable().meta({
      description: "Por qué el servicio la pausó (Meta pausó o desactivó su plantilla); null si no está pausada o la pausó un agente",
    }),
    audience: z.object({
      labels_any: z.array(z.number().int()),
      labels_all: z.array(z.number().int()),
      labels_exclude: z.array(z.number().int()),
    }),
    sent_group: z.string(),
    scheduled_at: z.string().nullable(),
    created_at: z.string(),
    started_at: z.string().nullable(),
    finished_at: z.string().nullable(),
    created_by: z.object({ agent_id: z.number().int(), agent_name: z.string().nullable() }).nullable(),
    counts: broadcastCounts,
    failures_by_code: z.array(failureByCode),
    messaging_limit: messagingLimitPlan.nullable().meta({
      description: "El plan de olas dentro del límite de mensajería del número; null cuando la difusión ya terminó o se canceló",
    }),
  })
  .meta({ id: "Broadcast" });
export type BroadcastDto = z.infer<typeof broadcastSchema>;

export const broadcastResponse = z.object({ message: z.string(), data: broadcastSchema }).meta({ id: "BroadcastResponse" });
export type BroadcastResponse = z.infer<typeof broadcastResponse>;

export const listBroadcastsQuery = pageQuery({ max: 100, fallback: 20 }).meta({ id: "ListBroadcastsQuery" });
export type ListBroadcastsQuery = z.output<typeof listBroadcastsQuery>;
export const listBroadcastsResponse = listResponse(broadcastSchema).meta({ id: "ListBroadcastsResponse" });

/** `{id}` of the broadcast routes: digits only, else 404 like a missing one. */
export const broadcastIdParam = z.string().regex(/^\d{1,9}$/);

// ---- Recipients ----

export const RECIPIENT_STATUSES = ["QUEUED", "SENDED", "SENT", "DELIVERED", "READED", "FAILED", "CANCELLED", "REJECTED"] as const;
export type RecipientStatusFilter = (typeof RECIPIENT_STATUSES)[number];

export const recipientsQuery = pageQuery({ max: 100, fallback: 50 })
  .extend({
    status: z
      .enum(RECIPIENT_STATUSES, { error: `El campo status solo admite: ${RECIPIENT_STATUSES.join(", ")}.` })
      .optional()
      .meta({ description: "CANCELLED: los FAILED por cancelación; REJECTED: los rechazados al crear la difusión." }),
    format: z.enum(["json", "csv"], { error: "El campo format debe ser json o csv." }).optional(),
    lang: z
      .enum(["es", "en"], { error: "El campo lang debe ser es o en." })
      .optional()
      .meta({ description: "Idioma de la columna status_label del CSV (por defecto es)" }),
  })
  .meta({ id: "BroadcastRecipientsQuery" });
export type RecipientsQuery = z.output<typeof recipientsQuery>;

export const recipientSchema = z
  .object({
    contact: z.object({ id: z.number().int(), name: z.string(), customer_number: z.string().nullable() }),
    update_id: z.string().nullable(),
    status: z.enum(["QUEUED", "SENDED", "SENT", "DELIVERED", "READED", "FAILED", "REJECTED"]),
    error: z.object({ code: z.number().int().nullable(), title: z.string() }).nullable(),
    replied: z.boolean(),
    updated_at: z.string(),
  })
  .meta({ id: "BroadcastRecipient" });
export type RecipientDto = z.infer<typeof recipientSchema>;
export const recipientsResponse = listResponse(recipientSchema).meta({ id: "BroadcastRecipientsResponse" });

/** `status` is the contract's code (READED); `status_label` the word a marketer reads ("Leído"), in `lang`. */
export const RECIPIENTS_CSV_HEADER = [
  "number",
  "name",
  "status",
  "status_label",
  "error_code",
  "error_title",
  "replied",
  "update_id",
] as const;

// ---- Timeline ----

export const timelineQuery = z
  .object({ bucket: z.enum(["minute", "hour"], { error: "El campo bucket debe ser minute u hour." }).optional().default("minute") })
  .meta({ id: "BroadcastTimelineQuery" });
export type TimelineQuery = z.output<typeof timelineQuery>;
export const timelinePoint = z
  .object({ at: z.string(), sent: z.number().int(), delivered: z.number().int(), read: z.number().int(), failed: z.number().int() })
  .meta({
    id: "BroadcastTimelinePoint",
    description: "Cambios de estado de los mensajes de la difusión en ese intervalo (sent = aceptados por el canal).",
  });
export const timelineResponse = z.object({ message: z.string(), data: z.array(timelinePoint) }).meta({ id: "BroadcastTimelineResponse" });

// ---- Event ----

export const broadcastUpdatedEvent = z
  .object({ id: z.number().int(), status: z.enum(BROADCAST_STATUSES), counts: broadcastCounts })
  .meta({ id: "BroadcastUpdatedEvent" });
export type BroadcastUpdatedEvent = z.infer<typeof broadcastUpdatedEvent>;

// ---- Messages ----

export const broadcastCreated = (queued: number, rejected: number) =>
  `Difusión creada: ${queued} destinatarios en cola, ${rejected} rechazados.`;
export const BROADCAST_NOT_FOUND = "La difusión no existe.";
export const BROADCAST_FOUND = "Difusión obtenida correctamente.";
export const BROADCASTS_FOUND = "Difusiones obtenidas correctamente.";
export const BROADCAST_PAUSED = "Difusión pausada.";
export const BROADCAST_RESUMED = "Difusión reanudada.";
export const BROADCAST_CANCELLED = "Difusión cancelada.";
export const RECIPIENTS_FOUND = "Destinatarios obtenidos correctamente.";
export const TIMELINE_FOUND = "Evolución de la difusión obtenida correctamente.";
/** The error title of a message left unsent by a cancel (status FAILED, code null). */
export const CANCELLED_TITLE = "Difusión cancelada";

const STATUS_ES: Record<BroadcastStatus, string> = {
  SCHEDULED: "programada",
  SENDING: "en envío",
  PAUSED: "pausada",
  CANCELLED: "cancelada",
  DONE: "terminada",
};
export const cannotPause = (s: BroadcastStatus) => `No se puede pausar una difusión ${STATUS_ES[s]}: solo una programada o en envío.`;
export const cannotResume = (s: BroadcastStatus) => `No se puede reanudar una difusión ${STATUS_ES[s]}: solo una pausada.`;
export const cannotCancel = (s: BroadcastStatus) =>
  s === "CANCELLED" ? "La difusión ya está cancelada." : `No se puede cancelar una difusión ${STATUS_ES[s]}: ya terminó.`;
