import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { CONTACT_NOT_FOUND, updateContactBody } from "@/lib/contacts/schemas";
import { updateContact } from "@/lib/contacts/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { contactId: string };

export const PATCH = withAuth<Params>({ need: "contacts:write" }, async ({ req, ctx, params }) => {
  const contactId = parseId(params.contactId, CONTACT_NOT_FOUND);
  const body = await parseJsonBody(req, updateContactBody);
  const data = await updateContact({ ctx, input: { contactId, ...body } });
  return json({ message: "Contacto actualizado correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["PATCH"]);
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as DELETE };
