import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { reportQuery } from "@/lib/reports/schemas";
import { reportAgents } from "@/lib/reports/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "reports:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, reportQuery);
  const data = await reportAgents({ ctx, input });
  return json({ message: "Informe por agente obtenido correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
