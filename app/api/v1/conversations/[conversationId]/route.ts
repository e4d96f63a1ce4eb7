import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { CONVERSATION_NOT_FOUND, updateConversationBody } from "@/lib/conversations/schemas";
import { getConversation, updateConversation } from "@/lib/conversations/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth<{ conversationId: string }>({ need: "conversations:read" }, async ({ ctx, params }) => {
  const data = await getConversation({ ctx, input: { id: parseId(params.conversationId, CONVERSATION_NOT_FOUND) } });
  return json({ message: "Conversación obtenida correctamente.", data });
});

export const PATCH = withAuth<{ conversationId: string }>({ need: "conversations:write" }, async ({ req, ctx, params }) => {
  const id = parseId(params.conversationId, CONVERSATION_NOT_FOUND);
  const body = await parseJsonBody(req, updateConversationBody);
  const data = await updateConversation({ ctx, input: { id, ...body } });
  return json({ message: "Conversación actualizada correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "PATCH", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as DELETE };
