import { withAuth } from "@/lib/http/with-auth";
import { parseId } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { INVITATION_NOT_FOUND } from "@/lib/agents/invitation-schemas";
import { revokeInvitation } from "@/lib/agents/invitation-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { invitationId: string };

export const DELETE = withAuth<Params>({ need: "agents:write" }, async ({ ctx, params }) => {
  const id = parseId(params.invitationId, INVITATION_NOT_FOUND);
  await revokeInvitation({ ctx, input: { id } });
  return json({ message: "Invitación revocada correctamente: su enlace ya no sirve." });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["DELETE"]);
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
