import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { BROADCAST_NOT_FOUND, RECIPIENTS_FOUND, recipientsQuery } from "@/lib/broadcasts/schemas";
import { listRecipients, recipientsCsv } from "@/lib/broadcasts/recipients-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

/** JSON pages, or the whole list as CSV with `?format=csv` or `Accept: text/csv`. */
export const GET = withAuth<{ broadcastId: string }>({ need: "broadcasts:read" }, async ({ req, ctx, params }) => {
  const id = parseId(params.broadcastId, BROADCAST_NOT_FOUND);
  const query = parseQuery(req, recipientsQuery);
  const wantsCsv = query.format === "csv" || (!query.format && (req.headers.get("accept") ?? "").includes("text/csv"));
  if (wantsCsv) {
    const stream = await recipientsCsv({ ctx, input: { id, status: query.status, lang: query.lang } });
    return new Response(stream, {
      headers: {
        "content-type": "text/csv; charset=utf-8",
        "content-disposition": `attachment; filename="broadcast-${id}-recipients.csv"`,
        "cache-control": "no-store",
      },
    });
  }
  const result = await listRecipients({ ctx, input: { ...query, id } });
  return json({ message: RECIPIENTS_FOUND, ...result });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
