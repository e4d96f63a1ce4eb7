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
