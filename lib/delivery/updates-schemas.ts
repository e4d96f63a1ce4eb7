import { z } from "@/lib/http/zod-es";
import { historyRecordSchema, messageErrorSchema } from "@/lib/messages/history-schemas";
import { routedToSchema } from "@/lib/routing/schemas";

export const updateParams = z.object({ update_id: z.string() }).meta({ id: "UpdateParams" });

/** One row of the message's status history (`message_status_history`), as received. */
export const statusHistoryEntrySchema = z
  .object({ status: z.string(), applied: z.boolean(), at: z.string(), raw: z.unknown() })
  .meta({ id: "MessageStatusHistoryEntry" });

export const updateSchema = historyRecordSchema
  .extend({
    update_id: z.string(),
    wa_number: z.string(),
    provider_message_id: z.string().nullable(),
    reply_to_update_id: z.string().nullable(),
    routed_to: routedToSchema.nullable(),
    error: messageErrorSchema.nullable(),
    attempts: z.number().int(),
    events: z.array(statusHistoryEntrySchema).meta({
      description:
        "Historial de estados del mensaje, en el orden recibido: cada estado que llegó, aplicado o no (`applied`), con lo recibido en `raw`. No son eventos en vivo de `GET /api/v1/events`.",
    }),
  })
  .meta({ id: "Update" });
export type UpdateDto = z.infer<typeof updateSchema>;

export const updateResponse = z.object({ message: z.string(), data: updateSchema }).meta({ id: "UpdateResponse" });
