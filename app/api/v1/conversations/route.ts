import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { listConversationsQuery } from "@/lib/conversations/schemas";
import { listConversations } from "@/lib/conversations/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "conversations:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, listConversationsQuery, { arrays: ["label_id"] });
  const result = await listConversations({ ctx, input });
  return json({ message: "Conversaciones obtenidas correctamente.", ...result });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
