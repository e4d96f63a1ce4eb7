import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { audienceSizeQuery } from "@/lib/audiences/schemas";
import { sizeAudience } from "@/lib/audiences/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "audiences:read" }, async ({ req, ctx }) => {
  const q = parseQuery(req, audienceSizeQuery);
  const data = await sizeAudience({ ctx, input: { labels_any: q.any, labels_all: q.all, labels_exclude: q.exclude } });
  return json({ message: "Tamaño de la audiencia obtenido correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
