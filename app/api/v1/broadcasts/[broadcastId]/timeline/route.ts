import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { BROADCAST_NOT_FOUND, TIMELINE_FOUND, timelineQuery } from "@/lib/broadcasts/schemas";
import { broadcastTimeline } from "@/lib/broadcasts/recipients";

export const GET = withAuth<{ broadcastId: string }>(async ({ req, ctx, params }) => {
  const id = parseId(params.broadcastId, BROADCAST_NOT_FOUND);
  const query = parseQuery(req, timelineQuery);
  const data = await broadcastTimeline({ ctx, input: { ...query, id } });
  return json({ message: TIMELINE_FOUND, data });
});
