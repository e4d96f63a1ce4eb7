import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { logout, sessionCookie } from "@/lib/auth/session-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const POST = withAuth({ need: "session:self" }, async ({ req, ctx }) => {
  await logout({ ctx });
  return json({ message: "Sesión cerrada." }, 200, { "set-cookie": sessionCookie(req, "", 0) });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
