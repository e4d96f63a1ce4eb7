import { z } from "@/lib/http/zod-es";
import {
  bodyParamsField,
  buttonParamsField,
  checkHandler,
  checkParams,
  destinationField,
  headerParamField,
  sharedSendFields,
} from "./send-schemas";

export const MAX_BULK_RECIPIENTS = 1000;

/** One recipient of a bulk send: validated on its own, so its errors never fail the others. */
export const sendBulkRecipient = z
  .object({ destination: destinationField, header_param: headerParamField, body_params: bodyParamsField, button_params: buttonParamsField })
  .superRefine(checkParams)
  .meta({ id: "SendBulkRecipient" });
export type SendBulkRecipient = z.output<typeof sendBulkRecipient>;

// The document shows each item as a recipient, though the request schema lets any item through.
const recipientDoc = (z.toJSONSchema(sendBulkRecipient, { io: "input", unrepresentable: "any" }).$defs ?? {}).SendBulkRecipient;

/**
 * The request: the single send's shared fields (same exact messages) and 1..1000 recipients.
 * Recipients pass through unparsed here (each item is a SendBulkRecipient) and are parsed one by
 * one by the service, which reports each one's errors in its own result.
 */
export const sendBulkRequest = z
  .object({
    ...sharedSendFields,
    recipients: z
      .array(z.unknown().meta({ override: recipientDoc as Record<string, unknown> }))
      .min(1, "El campo recipients debe tener al menos 1 destinatario.")
      .max(MAX_BULK_RECIPIENTS, `El campo recipients no puede tener más de ${MAX_BULK_RECIPIENTS} destinatarios.`),
  })
  .superRefine(checkHandler)
  .meta({ id: "SendBulkRequest" });
export type SendBulkInput = z.output<typeof sendBulkRequest>;

const fieldErrors = z.record(z.string(), z.array(z.string()));

export const sendBulkResult = z.union([
  z.object({ index: z.number().int(), destination: z.string(), update_id: z.string() }),
  z.object({ index: z.number().int(), destination: z.string(), errors: fieldErrors }),
]);
export type SendBulkResult = z.infer<typeof sendBulkResult>;

export const sendBulkResponse = z
  .object({
    message: z.string(),
    data: z.object({ accepted: z.number().int(), rejected: z.number().int(), results: z.array(sendBulkResult) }),
  })
  .meta({ id: "SendBulkResponse" });
export type SendBulkResponse = z.infer<typeof sendBulkResponse>;
