import { withAuth } from "@/lib/http/with-auth";
import { parseId } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { CAMPAIGN_NOT_FOUND } from "@/lib/campaigns/schemas";
import { rotateCampaignSecret } from "@/lib/campaigns/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { campaignId: string };

export const POST = withAuth<Params>({ need: "routing:admin" }, async ({ ctx, params }) => {
  const id = parseId(params.campaignId, CAMPAIGN_NOT_FOUND);
  const data = await rotateCampaignSecret({ ctx, input: { id } });
  return json({ message: "Secreto renovado correctamente. Guárdelo ahora: no se volverá a mostrar.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
