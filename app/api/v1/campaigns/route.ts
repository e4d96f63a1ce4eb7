import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { createCampaignInput, listCampaignsQuery } from "@/lib/campaigns/schemas";
import { createCampaign, listCampaigns } from "@/lib/campaigns/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "routing:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, listCampaignsQuery);
  const result = await listCampaigns({ ctx, input });
  return json({ message: "Campañas obtenidas correctamente.", ...result });
});

export const POST = withAuth({ need: "routing:admin" }, async ({ req, ctx }) => {
  const input = await parseJsonBody(req, createCampaignInput);
  const data = await createCampaign({ ctx, input });
  return json({ message: "Campaña creada correctamente.", data }, 201);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "POST", "HEAD"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
