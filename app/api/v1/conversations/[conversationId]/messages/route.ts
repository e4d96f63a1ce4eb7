import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { CONVERSATION_NOT_FOUND } from "@/lib/conversations/schemas";
import { conversationMessagesQuery } from "@/lib/conversations/thread-schemas";
import { listConversationMessages } from "@/lib/conversations/thread-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth<{ conversationId: string }>({ need: "conversations:read" }, async ({ req, ctx, params }) => {
  const conversationId = parseId(params.conversationId, CONVERSATION_NOT_FOUND);
  const query = parseQuery(req, conversationMessagesQuery);
  return json(await listConversationMessages({ ctx, input: { conversationId, ...query } }));
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
