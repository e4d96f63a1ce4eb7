import { withAuth } from "@/lib/http/with-auth";
import { parseId } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { BROADCAST_NOT_FOUND } from "@/lib/broadcasts/schemas";
import { resumeBroadcast } from "@/lib/broadcasts/service";

export const POST = withAuth<{ broadcastId: string }>(async ({ ctx, params }) => {
  const body = await resumeBroadcast({ ctx, input: { id: parseId(params.broadcastId, BROADCAST_NOT_FOUND) } });
  return json(body);
});
