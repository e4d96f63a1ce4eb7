import { withAuth } from "@/lib/http/with-auth";
import { readJson } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { idempotencyOf } from "@/lib/idempotency/service";
import { sendTemplateInput } from "@/lib/messages/send-schemas";
import { sendTemplate } from "@/lib/messages/send-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const POST = withAuth({ need: "messages:send" }, async ({ req, ctx }) => {
  // The raw body is kept: an Idempotency-Key stands for the request as sent, not as parsed.
  const raw = await readJson(req);
  const idempotency = idempotencyOf(req, "POST /api/v1/message_templates/send", raw);
  const input = sendTemplateInput.parse(raw);
  const result = await sendTemplate({ ctx, input, idempotency });
  return json(result.body, result.status, result.replayed ? { "idempotent-replayed": "true" } : undefined);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
