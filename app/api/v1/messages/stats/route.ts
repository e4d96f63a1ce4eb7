import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { messageStatsQuery } from "@/lib/messages/stats-schemas";
import { messageStats } from "@/lib/messages/stats-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "stats:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, messageStatsQuery);
  const data = await messageStats({ ctx, input });
  return json({ message: "Estadísticas de mensajes obtenidas correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
