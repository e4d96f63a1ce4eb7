import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { MESSAGING_LIMIT_FOUND, messagingLimitPreviewQuery } from "@/lib/broadcasts/schemas";
import { previewMessagingLimit } from "@/lib/broadcasts/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "broadcasts:read" }, async ({ req, ctx }) => {
  const data = await previewMessagingLimit({ ctx, input: parseQuery(req, messagingLimitPreviewQuery) });
  return json({ message: MESSAGING_LIMIT_FOUND, data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
