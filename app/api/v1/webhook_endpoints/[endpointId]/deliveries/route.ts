import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { ENDPOINT_NOT_FOUND, listEndpointDeliveriesQuery } from "@/lib/webhook-endpoints/schemas";
import { listEndpointDeliveries } from "@/lib/webhook-endpoints/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { endpointId: string };

export const GET = withAuth<Params>({ need: "webhooks:read" }, async ({ req, ctx, params }) => {
  const id = parseId(params.endpointId, ENDPOINT_NOT_FOUND);
  const query = parseQuery(req, listEndpointDeliveriesQuery);
  const result = await listEndpointDeliveries({ ctx, input: { id, ...query } });
  return json({ message: "Entregas de webhooks obtenidas correctamente.", ...result });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
