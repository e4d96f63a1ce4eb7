import { withAuth } from "@/lib/http/with-auth";
import { readJson } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { idempotencyOf } from "@/lib/idempotency/service";
import { sendTemplateInput } from "@/lib/messages/send-schemas";
import { sendTemplate } from "@/lib/messages/send-service";

export const POST = withAuth(async ({ req, ctx }) => {
  // The raw body is kept: an Idempotency-Key stands for the request as sent, not as parsed.
  const raw = await readJson(req);
  const idempotency = idempotencyOf(req, "POST /api/v1/message_templates/send", raw);
  const input = sendTemplateInput.parse(raw);
  const result = await sendTemplate({ ctx, input, idempotency });
  return json(result.body, result.status, result.replayed ? { "idempotent-replayed": "true" } : undefined);
});
