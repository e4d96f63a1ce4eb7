import { withAuth } from "@/lib/http/with-auth";
import { parseId } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { CONVERSATION_NOT_FOUND } from "@/lib/conversations/schemas";
import { markConversationRead } from "@/lib/conversations/service";

export const POST = withAuth<{ conversationId: string }>(async ({ ctx, params }) => {
  const data = await markConversationRead({ ctx, input: { id: parseId(params.conversationId, CONVERSATION_NOT_FOUND) } });
  return json({ message: "Conversación marcada como leída.", data });
});
