import { z } from "@/lib/http/zod-es";
import { MESSAGE_STATUSES } from "@/db/schema/messages";
import { CONVERSATION_STATUSES } from "@/db/schema/conversations";
import { labelSchema } from "@/lib/labels/schemas";
import { labelIdFilter, marketingOptOutSchema } from "@/lib/contacts/schemas";
import { perPageTooBig, PAGE_NOT_INTEGER } from "@/lib/http/list-query";
import { PG_INT_MAX } from "@/lib/http/ints";

export const CURSOR_INVALID = "El cursor no es válido.";
export const CONVERSATION_NOT_FOUND = "Conversación no encontrada.";
export const ASSIGNEE_INVALID = "El agente indicado no existe.";
export const CONVERSATION_UPDATE_EMPTY = "Debe indicar assignee_agent_id o status.";
export const ORDER_INVALID = "order debe ser newest o waiting.";
export const CONVERSATION_ORDERS = ["newest", "waiting"] as const;

const flag = z.enum(["0", "1"], { error: "Debe ser 0 o 1." }).transform((v) => v === "1");
const positiveId = z
  .string()
  .regex(/^\s*\d{1,9}\s*$/, "Debe ser un id entero.")
  .transform((s) => Number(s.trim()))
  .pipe(z.number().int().min(1, "Debe ser un id entero.").max(PG_INT_MAX, "Debe ser un id entero."));

/** `GET /api/v1/conversations`: filters, and an opaque cursor for the next page. */
export const listConversationsQuery = z
  .object({
    wa_number: z.string().trim().min(1).optional(),
    label_id: labelIdFilter,
    needs_reply: flag.optional(),
    unread: flag.optional(),
    search: z.string().trim().max(100, "La búsqueda no puede superar 100 caracteres.").optional(),
    assignee: z.union([z.enum(["me", "none"]), positiveId], { error: "assignee debe ser me, none o el id de un agente." }).optional(),
    status: z.enum(CONVERSATION_STATUSES, { error: "status debe ser open o resolved." }).optional(),
    outbound_only: flag.optional().meta({
      description:
        "1: solo las conversaciones en las que el cliente nunca escribió (las abrió una difusión o un envío); 0: solo aquellas en las que sí escribió (la bandeja «Abiertas» usa 0)",
    }),
    order: z.enum(CONVERSATION_ORDERS, { error: ORDER_INVALID }).optional().default("newest").meta({
      description:
        "newest: actividad más reciente primero. waiting: solo las que esperan respuesta (el último mensaje es del cliente), la que espera desde hace más tiempo primero",
    }),
    per_page: z
      .string()
      .regex(/^\s*\d{1,9}\s*$/, PAGE_NOT_INTEGER)
      .transform((s) => Number(s.trim()))
      .pipe(z.number().min(1, "El campo per_page debe ser al menos 1.").max(100, perPageTooBig(100)))
      .optional()
      .default(20),
    cursor: z.string().max(200, CURSOR_INVALID).optional(),
  })
  .meta({ id: "ListConversationsQuery" });
export type ListConversationsQuery = z.output<typeof listConversationsQuery>;

export const conversationSchema = z
  .object({
    id: z.number().int(),
    wa_number: z.string(),
    contact: z.object({
      id: z.number().int(),
      name: z.string().nullable(),
      customer_number: z.string().nullable(),
      customer_id: z.string().nullable(),
      labels: z.array(labelSchema),
      marketing_opt_out: marketingOptOutSchema,
    }),
    last_message: z.object({
      id: z.number().int(),
      update_id: z.string(),
      type: z.string(),
      direction: z.enum(["INBOUND", "OUTBOUND"]),
      sender: z.string().nullable(),
      status: z.enum(MESSAGE_STATUSES),
      created_at: z.string().meta({ description: "ISO 8601 (UTC)" }),
      preview: z.string().meta({ description: "Texto breve del mensaje, para la lista" }),
    }),
    unread_count: z.number().int(),
    last_inbound_at: z.string().nullable(),
    window_expires_at: z.string().nullable().meta({ description: "Último mensaje del cliente + 24 h; null si nunca escribió" }),
    assignee_agent_id: z.number().int().nullable(),
    status: z.enum(CONVERSATION_STATUSES),
    waiting_since: z.string().nullable().meta({
      description:
        "ISO 8601 (UTC): el mensaje más antiguo del cliente aún sin responder; null si nada espera (resolver la conversación también lo vacía)",
    }),
    opened_at: z
      .string()
      .meta({ description: "ISO 8601 (UTC): cuándo se abrió o se reabrió por última vez; desde ahí corre la resolución" }),
    first_response_seconds: z.number().int().nullable().meta({
      description: "Segundos que tardó la primera respuesta de un agente o de la API en esta apertura; null si aún no hay respuesta",
    }),
    resolved_at: z.string().nullable().meta({ description: "ISO 8601 (UTC): cuándo se resolvió; null mientras está abierta" }),
  })
  .meta({ id: "Conversation" });
export type ConversationDto = z.infer<typeof conversationSchema>;

export const listConversationsResponse = z
  .object({ message: z.string(), data: z.array(conversationSchema), next_cursor: z.string().nullable() })
  .meta({ id: "ListConversationsResponse" });

export const conversationResponse = z.object({ message: z.string(), data: conversationSchema }).meta({ id: "ConversationResponse" });

/** `PATCH /api/v1/conversations/{id}`: assign (null unassigns) and/or open or resolve. */
export const updateConversationBody = z
  .object({
    assignee_agent_id: z
      .number({ error: "assignee_agent_id debe ser un entero o null." })
      .int()
      .positive()
      // An agent id is an `integer` column: a larger value is no agent (not a database error).
      .max(PG_INT_MAX, ASSIGNEE_INVALID)
      .nullable()
      .optional(),
    status: z.enum(CONVERSATION_STATUSES, { error: "status debe ser open o resolved." }).optional(),
  })
  .strict()
  .refine((b) => b.assignee_agent_id !== undefined || b.status !== undefined, { message: CONVERSATION_UPDATE_EMPTY, path: ["body"] })
  .meta({ id: "UpdateConversationBody" });
export type UpdateConversationInput = z.output<typeof updateConversationBody>;
