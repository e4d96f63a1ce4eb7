import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { BROADCAST_NOT_FOUND, TIMELINE_FOUND, timelineQuery } from "@/lib/broadcasts/schemas";
import { broadcastTimeline } from "@/lib/broadcasts/recipients-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth<{ broadcastId: string }>({ need: "broadcasts:read" }, async ({ req, ctx, params }) => {
  const id = parseId(params.broadcastId, BROADCAST_NOT_FOUND);
  const query = parseQuery(req, timelineQuery);
  const data = await broadcastTimeline({ ctx, input: { ...query, id } });
  return json({ message: TIMELINE_FOUND, data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
