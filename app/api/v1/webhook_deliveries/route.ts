import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { listWebhookDeliveriesQuery } from "@/lib/webhooks/schemas";
import { listWebhookDeliveries } from "@/lib/webhooks/deliveries";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = parseQuery(req, listWebhookDeliveriesQuery);
  const result = await listWebhookDeliveries({ ctx, input });
  return json({ message: "Entregas de webhooks obtenidas correctamente.", ...result });
});
