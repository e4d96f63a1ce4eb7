import { withErrors } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { invitationLookupBody } from "@/lib/agents/invitation-schemas";
import { lookupInvitation } from "@/lib/agents/invitation-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

// Public: the link's token is the credential. A POST, so the token stays out of URLs and logs.
export const POST = withErrors(async ({ req }) => {
  const input = await parseJsonBody(req, invitationLookupBody);
  const data = await lookupInvitation({ input });
  return json({ message: "Invitación válida.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
