import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";
import { webhookUrlRefusal, webhookUrlRefusalMessage } from "@/lib/outgoing-webhooks/url-policy";

export const botSchema = z.object({ id: z.number().int(), name: z.string(), is_default: z.boolean() }).meta({ id: "Bot" });
export type BotDto = z.infer<typeof botSchema>;

export const listBotsQuery = pageQuery({ max: 100, fallback: 50 }).meta({ id: "ListBotsQuery" });
export const listBotsResponse = listResponse(botSchema).meta({ id: "ListBotsResponse" });

/**
 * http(s) only: the worker POSTs events there. Internal addresses and credentials are refused here
 * and again at delivery, after DNS (lib/outgoing-webhooks/url-policy.ts).
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
      return;
    }
    const refusal = webhookUrlRefusal(url);
    if (refusal) ctx.addIssue({ code: "custom", message: webhookUrlRefusalMessage(refusal) });
  });

/** Input of `createBot` (admin CLI `bot:add`). */
export const createBotInput = z
  .object({
    name: z.string().trim().min(1, "El campo name no puede estar vacío.").max(100, "El campo name no puede tener más de 100 caracteres."),
    is_default: z.boolean().optional().default(false),
    webhook_url: webhookUrlSchema.nullable().optional(),
  })
  .meta({ id: "CreateBotInput" });
export type CreateBotInput = z.input<typeof createBotInput>;
