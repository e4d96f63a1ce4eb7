import { z } from "@/lib/http/zod-es";
import { routedToSchema } from "@/lib/routing/schemas";

/** Query of Meta's GET verification handshake. */
export const webhookVerifyQuery = z
  .object({
    "hub.mode": z.string().optional(),
    "hub.verify_token": z.string().max(512).optional(),
    "hub.challenge": z.string().max(512).optional(),
  })
  .meta({ id: "WebhookVerifyQuery" });

export const webhookReceiptResponse = z
  .object({
    message: z.string(),
    data: z.object({
      messages: z.number().int(),
      statuses: z.number().int(),
      updates: z.number().int().meta({ description: "Cambios de plantillas y de salud de números aplicados" }),
      ignored: z.number().int(),
    }),
  })
  .meta({ id: "WebhookReceiptResponse" });

/** A customer message injected into a sandbox number, as if the channel had delivered it. */
export const sandboxInboundInput = z
  .object({
    wa_number: z.string().trim().min(1, "El campo wa_number es obligatorio.").max(32),
    from: z
      .string()
      .trim()
      .regex(/^\+?[0-9][0-9 ]{6,19}$/, "El campo from debe ser un número de teléfono."),
    type: z.string().regex(/^[a-z_]{1,40}$/, "El campo type debe ser un tipo de mensaje (por ejemplo text)."),
    payload: z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())]),
    profile_name: z.string().trim().max(200).optional(),
    context_update_id: z.uuid("El campo context_update_id debe ser un UUID.").optional(),
  })
  .meta({ id: "SandboxInboundInput" });
export type SandboxInboundInput = z.infer<typeof sandboxInboundInput>;

export const sandboxInboundResponse = z
  .object({
    message: z.string(),
    data: z.object({
      update_id: z.string(),
      reply_to_update_id: z.string().nullable(),
      routed_to: routedToSchema.nullable(),
    }),
  })
  .meta({ id: "SandboxInboundResponse" });
