import { withErrors } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { clientAddress } from "@/lib/http/client-address";
import { loginRequestSchema } from "@/lib/auth/session-schemas";
import { login, sessionCookie } from "@/lib/auth/session-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const POST = withErrors(async ({ req }) => {
  const input = await parseJsonBody(req, loginRequestSchema);
  const { token, agent } = await login({ input, address: clientAddress(req) });
  return json({ message: "Sesión iniciada.", data: agent }, 200, { "set-cookie": sessionCookie(req, token) });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
