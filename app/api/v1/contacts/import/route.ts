import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { parseQuery } from "@/lib/http/parse";
import { importContacts } from "@/lib/contacts/import-service";
import { importQuery } from "@/lib/contacts/import-schemas";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

/**
 * The body is the CSV itself. With `Accept: application/x-ndjson` the answer is a stream of
 * progress lines and a final `done` line; otherwise one JSON body when the import is over.
 * `?dry_run=1` checks the file and writes nothing (always one JSON body).
 */
export const POST = withAuth({ need: "contacts:write" }, async ({ req, ctx }) => {
  const query = parseQuery(req, importQuery);
  const ndjson = (req.headers.get("accept") ?? "").toLowerCase().includes("application/x-ndjson");
  const result = await importContacts({ ctx, input: { req, ndjson, query } });
  if ("stream" in result) {
    return new Response(result.stream, {
      headers: { "content-type": "application/x-ndjson; charset=utf-8", "cache-control": "no-store", "x-content-type-options": "nosniff" },
    });
  }
  return json(result.body);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
