import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { listConversationsQuery } from "@/lib/conversations/schemas";
import { listConversations } from "@/lib/conversations/service";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = parseQuery(req, listConversationsQuery, { arrays: ["label_id"] });
  const result = await listConversations({ ctx, input });
  return json({ message: "Conversaciones obtenidas correctamente.", ...result });
});
