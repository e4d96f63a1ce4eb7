import { withAuth } from "@/lib/http/with-auth";
import { parseId } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { DELIVERY_NOT_FOUND } from "@/lib/webhook-endpoints/schemas";
import { resendDelivery } from "@/lib/webhook-endpoints/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { deliveryId: string };

export const POST = withAuth<Params>({ need: "webhooks:write" }, async ({ ctx, params }) => {
  const id = parseId(params.deliveryId, DELIVERY_NOT_FOUND);
  const data = await resendDelivery({ ctx, input: { id } });
  return json({ message: "Entrega de webhook reenviada correctamente.", data }, 202);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
