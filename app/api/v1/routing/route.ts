import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { getRoutingRules } from "@/lib/routing/settings-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "routing:admin" }, async ({ ctx }) => {
  const data = await getRoutingRules({ ctx });
  return json({ message: "Reglas de enrutamiento obtenidas correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
