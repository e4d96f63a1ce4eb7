import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { listCampaignsQuery } from "@/lib/campaigns/schemas";
import { listCampaigns } from "@/lib/campaigns/service";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = parseQuery(req, listCampaignsQuery);
  const result = await listCampaigns({ ctx, input });
  return json({ message: "Campañas obtenidas correctamente.", ...result });
});
