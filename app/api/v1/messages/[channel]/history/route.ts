import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { historyQuerySchema } from "@/lib/messages/history-schemas";
import { messageHistory, requireChannel } from "@/lib/messages/history-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth<{ channel: string }>({ need: "history:read" }, async ({ req, ctx, params }) => {
  requireChannel(params.channel);
  const input = parseQuery(req, historyQuerySchema);
  const result = await messageHistory({ ctx, input });
  if ("stream" in result) {
    return new Response(result.stream, {
      headers: { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" },
    });
  }
  return json(result);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
