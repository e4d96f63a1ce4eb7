import { withAuth } from "@/lib/http/with-auth";
import { parseId } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { CONVERSATION_NOT_FOUND } from "@/lib/conversations/schemas";
import { markConversationRead } from "@/lib/conversations/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const POST = withAuth<{ conversationId: string }>({ need: "conversations:write" }, async ({ ctx, params }) => {
  const data = await markConversationRead({ ctx, input: { id: parseId(params.conversationId, CONVERSATION_NOT_FOUND) } });
  return json({ message: "Conversación marcada como leída.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
