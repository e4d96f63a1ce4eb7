import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { CAMPAIGN_NOT_FOUND, updateCampaignInput } from "@/lib/campaigns/schemas";
import { deleteCampaign, updateCampaign } from "@/lib/campaigns/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { campaignId: string };

export const PATCH = withAuth<Params>({ need: "routing:admin" }, async ({ req, ctx, params }) => {
  const id = parseId(params.campaignId, CAMPAIGN_NOT_FOUND);
  const input = await parseJsonBody(req, updateCampaignInput);
  const data = await updateCampaign({ ctx, input: { ...input, id } });
  return json({ message: "Campaña actualizada correctamente.", data });
});

export const DELETE = withAuth<Params>({ need: "routing:admin" }, async ({ ctx, params }) => {
  const id = parseId(params.campaignId, CAMPAIGN_NOT_FOUND);
  const data = await deleteCampaign({ ctx, input: { id } });
  return json({ message: "Campaña eliminada correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["PATCH", "DELETE"]);
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT };
