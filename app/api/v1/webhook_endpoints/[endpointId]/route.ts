import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { ENDPOINT_NOT_FOUND, updateEndpointBody } from "@/lib/webhook-endpoints/schemas";
import { deleteEndpoint, getEndpoint, updateEndpoint } from "@/lib/webhook-endpoints/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { endpointId: string };

export const GET = withAuth<Params>({ need: "webhooks:read" }, async ({ ctx, params }) => {
  const id = parseId(params.endpointId, ENDPOINT_NOT_FOUND);
  const data = await getEndpoint({ ctx, input: { id } });
  return json({ message: "Endpoint de webhook obtenido correctamente.", data });
});

export const PATCH = withAuth<Params>({ need: "webhooks:write" }, async ({ req, ctx, params }) => {
  const id = parseId(params.endpointId, ENDPOINT_NOT_FOUND);
  const changes = await parseJsonBody(req, updateEndpointBody);
  const data = await updateEndpoint({ ctx, input: { id, changes } });
  return json({ message: "Endpoint de webhook actualizado correctamente.", data });
});

export const DELETE = withAuth<Params>({ need: "webhooks:write" }, async ({ ctx, params }) => {
  const id = parseId(params.endpointId, ENDPOINT_NOT_FOUND);
  await deleteEndpoint({ ctx, input: { id } });
  return json({ message: "Endpoint de webhook eliminado correctamente." });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "PATCH", "DELETE", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT };
