import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { me } from "@/lib/auth/session-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "session:self" }, async ({ ctx }) => {
  const data = await me({ ctx });
  return json({ message: "Agente obtenido correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
