import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { ENDPOINT_NOT_FOUND, resendFailedBody } from "@/lib/webhook-endpoints/schemas";
import { resendFailedDeliveries } from "@/lib/webhook-endpoints/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { endpointId: string };

export const POST = withAuth<Params>({ need: "webhooks:write" }, async ({ req, ctx, params }) => {
  const id = parseId(params.endpointId, ENDPOINT_NOT_FOUND);
  const body = await parseJsonBody(req, resendFailedBody);
  const data = await resendFailedDeliveries({ ctx, input: { id, since: body.since } });
  return json({ message: "Entregas fallidas reenviadas correctamente.", data }, 202);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
