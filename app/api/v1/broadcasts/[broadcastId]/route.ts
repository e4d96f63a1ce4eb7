import { withAuth } from "@/lib/http/with-auth";
import { parseId } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { BROADCAST_FOUND, BROADCAST_NOT_FOUND } from "@/lib/broadcasts/schemas";
import { getBroadcast } from "@/lib/broadcasts/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth<{ broadcastId: string }>({ need: "broadcasts:read" }, async ({ ctx, params }) => {
  const data = await getBroadcast({ ctx, input: { id: parseId(params.broadcastId, BROADCAST_NOT_FOUND) } });
  return json({ message: BROADCAST_FOUND, data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
