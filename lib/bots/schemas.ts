import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";

export const botSchema = z.object({ id: z.number().int(), name: z.string(), is_default: z.boolean() }).meta({ id: "Bot" });
export type BotDto = z.infer<typeof botSchema>;

export const listBotsQuery = pageQuery({ max: 100, fallback: 50 }).meta({ id: "ListBotsQuery" });
export const listBotsResponse = listResponse(botSchema).meta({ id: "ListBotsResponse" });

/**
 * http(s) only: the worker POSTs events there. Only the form of the URL here, so the settings page's
 * forms run this same schema in the browser; internal addresses and credentials are refused by the
 * services when the URL is set (lib/bots/webhook-url.ts) and again at delivery, after DNS
 * (lib/outgoing-webhooks/url-policy.ts), which need the server's settings and Node's address tables.
 */
export const webhookUrlSchema = z
  .string()
  .trim()
  .max(2000, "El campo webhook_url no puede tener más de 2000 caracteres.")
  .superRefine((s, ctx) => {
    let url: URL | null = null;
    try {
      url = new URL(s);
    } catch {}
    if (!url || !["http:", "https:"].includes(url.protocol)) {
      ctx.addIssue({ code: "custom", message: "El campo webhook_url debe ser una URL http(s) válida." });
    }
  });

/** Input of `createBot` (`POST /api/v1/bots`, the admin CLI's `bot:add`, the settings form). */
export const createBotInput = z
  .object({
    name: z.string().trim().min(1, "El campo name no puede estar vacío.").max(100, "El campo name no puede tener más de 100 caracteres."),
    is_default: z.boolean().optional().default(false),
    webhook_url: webhookUrlSchema.nullable().optional(),
  })
  .meta({ id: "CreateBotInput" });
export type CreateBotInput = z.input<typeof createBotInput>;

export const BOT_NOT_FOUND = "El bot no existe.";
export const BOT_IN_USE = "El bot tiene mensajes enviados o recibidos y no se puede eliminar.";
export const NO_WEBHOOK_TO_SIGN = "Sin webhook_url no hay secreto que renovar: agregue primero la URL.";

/**
 * A bot as its settings show it (/settings/routing, docs/features/routing.md): its webhook URL, and
 * whether a signing secret is set, never the secret itself (it is shown once, on create or rotate).
 */
export const botSettingsSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    is_default: z.boolean(),
    webhook_url: z.string().nullable(),
    has_webhook_secret: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: "BotSettings" });
export type BotSettingsDto = z.infer<typeof botSettingsSchema>;

/** A bot with its signing secret: only in the answer of a create (with a URL), a new URL, or a rotate. */
export const botWithSecretSchema = botSettingsSchema.extend({ webhook_secret: z.string().nullable() }).meta({ id: "BotWithSecret" });
export const botWithSecretResponse = z.object({ message: z.string(), data: botWithSecretSchema }).meta({ id: "BotWithSecretResponse" });
export const botSettingsResponse = z.object({ message: z.string(), data: botSettingsSchema }).meta({ id: "BotSettingsResponse" });

/** PATCH /bots/{id}: any of the create's fields; `webhook_url: null` removes the URL and its secret. */
export const updateBotInput = z
  .object({
    name: createBotInput.shape.name.optional(),
    is_default: z.boolean().optional(),
    webhook_url: webhookUrlSchema.nullable().optional(),
  })
  .meta({ id: "UpdateBotInput" });
export type UpdateBotInput = z.input<typeof updateBotInput>;
