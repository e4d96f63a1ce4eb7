import { withErrors } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { clientAddress } from "@/lib/http/client-address";
import { acceptInvitationBody } from "@/lib/agents/invitation-schemas";
import { acceptInvitation } from "@/lib/agents/invitation-service";
import { sessionCookie } from "@/lib/auth/session-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

// Public: the link's token is the credential. Creates the agent and signs it in, as login does.
export const POST = withErrors(async ({ req }) => {
  const input = await parseJsonBody(req, acceptInvitationBody);
  const { token, agent } = await acceptInvitation({ input, address: clientAddress(req) });
  return json({ message: "Invitación aceptada: bienvenido al equipo.", data: agent }, 201, { "set-cookie": sessionCookie(req, token) });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
