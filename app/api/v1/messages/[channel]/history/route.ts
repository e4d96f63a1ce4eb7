import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { historyQuerySchema } from "@/lib/messages/history-schemas";
import { messageHistory, requireChannel } from "@/lib/messages/history";

export const GET = withAuth<{ channel: string }>(async ({ req, ctx, params }) => {
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
