import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";

/**
 * The shapes of the sync with Meta's template lists and of a template's history
 * (docs/features/templates-and-number-health.md): shared by the routes, the OpenAPI document and
 * the /templates page. Client-safe.
 */

/** What a sync did for one business account (or why it did nothing). */
export const accountSyncResultSchema = z
  .object({
    business_account_id: z.string().nullable().meta({ description: "La cuenta de WhatsApp Business (WABA); null para el sandbox" }),
    wa_numbers: z.array(z.string()).meta({ description: "Los números del equipo en esa cuenta" }),
    outcome: z.enum(["synced", "failed", "skipped"]).meta({
      description:
        "`synced`: la lista de Meta se leyó entera y se aplicó; `failed`: Meta no respondió la lista (ver `error`); `skipped`: el número no tiene API de Meta",
    }),
    skipped_reason: z.enum(["sandbox", "no_business_account"]).nullable().meta({
      description: "`sandbox`: el número de pruebas no tiene Graph; `no_business_account`: número de Cloud API sin business_account_id",
    }),
    fetched: z.number().int().meta({ description: "Plantillas que Meta listó" }),
    created: z.number().int(),
    updated: z.number().int().meta({ description: "Plantillas cuyo estado, calidad, categoría o contenido cambió" }),
    deleted: z.number().int().meta({ description: "Plantillas que Meta ya no lista, marcadas DELETED (nunca se borran)" }),
    set_aside: z.number().int().meta({ description: "Elementos de la respuesta de Meta apartados con su motivo (webhook_dead_letters)" }),
    error: z
      .object({
        code: z.number().int().nullable().meta({ description: "El código de error de Graph (190: token inválido o caducado)" }),
        message: z.string(),
      })
      .nullable(),
  })
  .meta({ id: "TemplateSyncAccount" });
export type AccountSyncResult = z.infer<typeof accountSyncResultSchema>;

export const syncTemplatesQuery = z
  .object({
    business_account_id: z
      .string()
      .trim()
      .min(1, "El campo business_account_id no puede estar vacío.")
      .max(64, "El campo business_account_id no puede tener más de 64 caracteres.")
      .optional()
      .meta({ description: "Solo esta cuenta de WhatsApp Business; sin él, todas las del equipo" }),
  })
  .meta({ id: "SyncTemplatesQuery" });
export type SyncTemplatesQuery = z.infer<typeof syncTemplatesQuery>;

export const syncTemplatesResponse = z
  .object({ message: z.string(), data: z.object({ accounts: z.array(accountSyncResultSchema) }) })
  .meta({ id: "SyncTemplatesResponse" });
export type SyncTemplatesResponse = z.infer<typeof syncTemplatesResponse>;

/** The last sync of one business account: when, by whom, and what it did. */
export const templateSyncStateSchema = z
  .object({
    business_account_id: z.string(),
    running: z.boolean().meta({ description: "Una sincronización de la cuenta está en curso" }),
    started_at: z.string().nullable().meta({ description: "ISO 8601 (UTC); null si nunca se sincronizó" }),
    finished_at: z.string().nullable(),
    triggered_by: z.string().meta({ description: "`schedule` (TEMPLATE_SYNC_INTERVAL_MIN), `cli`, o quien la pidió" }),
    last_result: accountSyncResultSchema.nullable(),
  })
  .meta({ id: "TemplateSyncState" });
export type TemplateSyncState = z.infer<typeof templateSyncStateSchema>;

export const listTemplateSyncsResponse = z
  .object({ message: z.string(), data: z.array(templateSyncStateSchema) })
  .meta({ id: "ListTemplateSyncsResponse" });

export const TEMPLATE_CHANGE_FIELDS = ["status", "quality", "category", "category_pending", "notice", "components"] as const;

/** One change Meta made to a template (`template_changes`). */
export const templateChangeSchema = z
  .object({
    id: z.number().int(),
    field: z.enum(TEMPLATE_CHANGE_FIELDS).meta({
      description:
        "`status`, `quality`, `category`; `category_pending`: un cambio de categoría anunciado; `notice`: un aviso sin cambio (FLAGGED…); `components`: el contenido editado en Meta",
    }),
    previous: z.string().nullable().meta({ description: "Lo que era (null: la plantilla se creó con esta sincronización)" }),
    value: z.string(),
    reason: z.string().nullable().meta({ description: "El motivo de Meta (un rechazo, una pausa)" }),
    source: z.enum(["webhook", "sync", "editor"]).meta({
      description: "`webhook`: Meta lo avisó; `sync`: se vio al leer la lista de Meta; `editor`: un agente la envió a Meta o la borró",
    }),
    meta_at: z
      .string()
      .nullable()
      .meta({ description: "ISO 8601 (UTC): la hora de Meta (la del webhook, o el inicio de la sincronización)" }),
    received_at: z.string().meta({ description: "ISO 8601 (UTC): cuando lo registramos" }),
  })
  .meta({ id: "TemplateChange" });
export type TemplateChangeDto = z.infer<typeof templateChangeSchema>;

export const TEMPLATE_NOT_FOUND = "La plantilla no existe.";

export const templateChangesQuery = pageQuery({ max: 100, fallback: 50 }).meta({ id: "TemplateChangesQuery" });
export type TemplateChangesQuery = z.infer<typeof templateChangesQuery>;
export const listTemplateChangesResponse = listResponse(templateChangeSchema).meta({ id: "ListTemplateChangesResponse" });
