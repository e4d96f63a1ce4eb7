import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { listAgents } from "@/lib/agents/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "agents:read" }, async ({ ctx }) => {
  const data = await listAgents({ ctx });
  return json({ message: "Agentes obtenidos correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
