import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";
import { webhookUrlSchema } from "@/lib/bots/schemas";

export const campaignSchema = z.object({ id: z.number().int(), name: z.string() }).meta({ id: "Campaign" });
export type CampaignDto = z.infer<typeof campaignSchema>;

export const listCampaignsQuery = pageQuery({ max: 100, fallback: 50 }).meta({ id: "ListCampaignsQuery" });
export const listCampaignsResponse = listResponse(campaignSchema).meta({ id: "ListCampaignsResponse" });

/** Input of `createCampaign` (admin CLI `campaign:add`). */
export const createCampaignInput = z
  .object({
    name: z.string().trim().min(1, "El campo name no puede estar vacío.").max(100, "El campo name no puede tener más de 100 caracteres."),
    webhook_url: webhookUrlSchema.nullable().optional(),
  })
  .meta({ id: "CreateCampaignInput" });
export type CreateCampaignInput = z.input<typeof createCampaignInput>;

export const CAMPAIGN_NOT_FOUND = "La campaña no existe.";
export const CAMPAIGN_IN_USE = "La campaña tiene mensajes enviados o recibidos y no se puede eliminar.";

/** A campaign as its settings show it: whether a signing secret is set, never the secret itself. */
export const campaignSettingsSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    webhook_url: z.string().nullable(),
    has_webhook_secret: z.boolean(),
    created_at: z.string(),
  })
  .meta({ id: "CampaignSettings" });
export type CampaignSettingsDto = z.infer<typeof campaignSettingsSchema>;

/** A campaign with its signing secret: only in the answer of a create (with a URL), a new URL, or a rotate. */
export const campaignWithSecretSchema = campaignSettingsSchema
  .extend({ webhook_secret: z.string().nullable() })
  .meta({ id: "CampaignWithSecret" });
export const campaignWithSecretResponse = z
  .object({ message: z.string(), data: campaignWithSecretSchema })
  .meta({ id: "CampaignWithSecretResponse" });
export const campaignSettingsResponse = z
  .object({ message: z.string(), data: campaignSettingsSchema })
  .meta({ id: "CampaignSettingsResponse" });

/** PATCH /campaigns/{id}: any of the create's fields; `webhook_url: null` removes the URL and its secret. */
export const updateCampaignInput = z
  .object({
    name: createCampaignInput.shape.name.optional(),
    webhook_url: webhookUrlSchema.nullable().optional(),
  })
  .meta({ id: "UpdateCampaignInput" });
export type UpdateCampaignInput = z.input<typeof updateCampaignInput>;
