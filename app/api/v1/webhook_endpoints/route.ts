import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { createEndpointBody } from "@/lib/webhook-endpoints/schemas";
import { createEndpoint, listEndpoints } from "@/lib/webhook-endpoints/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "webhooks:read" }, async ({ ctx }) => {
  const data = await listEndpoints({ ctx });
  return json({ message: "Endpoints de webhook obtenidos correctamente.", data });
});

export const POST = withAuth({ need: "webhooks:write" }, async ({ req, ctx }) => {
  const input = await parseJsonBody(req, createEndpointBody);
  const data = await createEndpoint({ ctx, input });
  return json({ message: "Endpoint de webhook creado correctamente. Guarde el secreto ahora: no se volverá a mostrar.", data }, 201);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "POST", "HEAD"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
