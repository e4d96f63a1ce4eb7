import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";

export const waNumberSchema = z
  .object({
    id: z.number().int(),
    number: z.string(),
    display_name: z.string(),
    provider: z.enum(["sandbox", "cloud_api"]),
    messages_per_second: z.number().int(),
    quality_rating: z
      .string()
      .nullable()
      .meta({ description: "Calificación de calidad según Meta (GREEN, YELLOW, RED, UNKNOWN); null hasta que Meta informe" }),
    messaging_limit_tier: z
      .string()
      .nullable()
      .meta({ description: "Límite de mensajes de Meta (TIER_250, TIER_1K, TIER_10K…); null hasta que Meta informe" }),
    health_event: z.string().nullable().meta({
      description: "El último aviso de Meta sobre el número (FLAGGED, DOWNGRADE, UPGRADE, ACCOUNT_VIOLATION…); null hasta que Meta informe",
    }),
    health_updated_at: z.string().nullable().meta({ description: "ISO 8601 (UTC): el último aviso de Meta sobre el número" }),
    business_account_id: z
      .string()
      .nullable()
      .meta({ description: "La cuenta de WhatsApp Business (WABA) del número en Cloud API; null en el sandbox" }),
    disabled: z.boolean().meta({ description: "Desactivado en los ajustes: sus envíos y respuestas se rechazan (422)" }),
  })
  .meta({ id: "WaNumber" });
export type WaNumberDto = z.infer<typeof waNumberSchema>;

export const listWaNumbersQuery = pageQuery({ max: 100, fallback: 50 }).meta({ id: "ListWaNumbersQuery" });
export const listWaNumbersResponse = listResponse(waNumberSchema).meta({ id: "ListWaNumbersResponse" });
