import { withAuth } from "@/lib/http/with-auth";
import { parseId } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { BROADCAST_NOT_FOUND } from "@/lib/broadcasts/schemas";
import { resumeBroadcast } from "@/lib/broadcasts/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const POST = withAuth<{ broadcastId: string }>({ need: "broadcasts:write" }, async ({ ctx, params }) => {
  const body = await resumeBroadcast({ ctx, input: { id: parseId(params.broadcastId, BROADCAST_NOT_FOUND) } });
  return json(body);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
