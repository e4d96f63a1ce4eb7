import { z } from "@/lib/http/zod-es";
import { historyRecordSchema, messageErrorSchema } from "@/lib/messages/history-schemas";
import { routedToSchema } from "@/lib/routing/schemas";

export const updateParams = z.object({ update_id: z.string() }).meta({ id: "UpdateParams" });

export const messageEventSchema = z
  .object({ status: z.string(), applied: z.boolean(), at: z.string(), raw: z.unknown() })
  .meta({ id: "MessageEvent" });

export const updateSchema = historyRecordSchema
  .extend({
    update_id: z.string(),
    wa_number: z.string(),
    provider_message_id: z.string().nullable(),
    reply_to_update_id: z.string().nullable(),
    routed_to: routedToSchema.nullable(),
    error: messageErrorSchema.nullable(),
    attempts: z.number().int(),
    events: z.array(messageEventSchema),
  })
  .meta({ id: "Update" });
export type UpdateDto = z.infer<typeof updateSchema>;

export const updateResponse = z.object({ message: z.string(), data: updateSchema }).meta({ id: "UpdateResponse" });
