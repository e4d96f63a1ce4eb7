import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { listWebhookDeliveriesQuery } from "@/lib/outgoing-webhooks/schemas";
import { listWebhookDeliveries } from "@/lib/outgoing-webhooks/deliveries-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "webhooks:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, listWebhookDeliveriesQuery);
  const result = await listWebhookDeliveries({ ctx, input });
  return json({ message: "Entregas de webhooks obtenidas correctamente.", ...result });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
