import { withAuth } from "@/lib/http/with-auth";
import { readJson } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { idempotencyOf } from "@/lib/idempotency/service";
import { sendBulkRequest } from "@/lib/messages/send-bulk-schemas";
import { sendBulk } from "@/lib/messages/send-bulk-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

// 1,000 recipients with a few long parameters each fit well within this.
const MAX_BULK_BYTES = 2 * 1024 * 1024;

export const POST = withAuth({ need: "messages:send" }, async ({ req, ctx }) => {
  const raw = await readJson(req, MAX_BULK_BYTES);
  const idempotency = idempotencyOf(req, "POST /api/v1/message_templates/send_bulk", raw);
  const input = sendBulkRequest.parse(raw);
  const result = await sendBulk({ ctx, input, idempotency });
  return json(result.body, result.status, result.replayed ? { "idempotent-replayed": "true" } : undefined);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
