import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";

/** One queued POST to a bot's, campaign's or webhook endpoint's URL, as `GET /api/v1/webhook_deliveries` lists it. */
export const webhookDeliverySchema = z
  .object({
    id: z.number().int(),
    event: z.string(),
    target_kind: z.enum(["bot", "campaign", "endpoint"]),
    target_id: z.number().int(),
    url: z.string(),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int(),
    last_status_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: z.string().meta({ description: "Of a pending delivery: its next attempt" }),
    last_attempt_at: z.string().nullable().meta({ description: "When the last attempt was answered or gave up" }),
    last_duration_ms: z.number().int().nullable().meta({ description: "How long the last attempt took" }),
    created_at: z.string(),
    delivered_at: z.string().nullable(),
    payload: z.unknown(),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDeliveryDto = z.infer<typeof webhookDeliverySchema>;

export const listWebhookDeliveriesQuery = pageQuery({ max: 100, fallback: 50 }).meta({ id: "ListWebhookDeliveriesQuery" });
export const listWebhookDeliveriesResponse = listResponse(webhookDeliverySchema).meta({ id: "ListWebhookDeliveriesResponse" });
