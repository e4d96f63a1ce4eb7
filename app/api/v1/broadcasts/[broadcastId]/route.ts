import { withAuth } from "@/lib/http/with-auth";
import { parseId } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { BROADCAST_FOUND, BROADCAST_NOT_FOUND } from "@/lib/broadcasts/schemas";
import { getBroadcast } from "@/lib/broadcasts/service";

export const GET = withAuth<{ broadcastId: string }>(async ({ ctx, params }) => {
  const data = await getBroadcast({ ctx, input: { id: parseId(params.broadcastId, BROADCAST_NOT_FOUND) } });
  return json({ message: BROADCAST_FOUND, data });
});
