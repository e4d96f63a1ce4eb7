import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { CONTACT_NOT_FOUND, contactLabelIdsBody } from "@/lib/contacts/schemas";
import { addContactLabels, removeContactLabels } from "@/lib/contacts/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { contactId: string };

export const POST = withAuth<Params>({ need: "contacts:write" }, async ({ req, ctx, params }) => {
  const contactId = parseId(params.contactId, CONTACT_NOT_FOUND);
  const body = await parseJsonBody(req, contactLabelIdsBody);
  const data = await addContactLabels({ ctx, input: { contactId, ...body } });
  return json({ message: "Etiquetas agregadas al contacto correctamente.", data });
});

export const PUT = withAuth<Params>({ need: "contacts:write" }, async ({ req, ctx, params }) => {
  const contactId = parseId(params.contactId, CONTACT_NOT_FOUND);
  const body = await parseJsonBody(req, contactLabelIdsBody);
  const data = await removeContactLabels({ ctx, input: { contactId, ...body } });
  return json({ message: "Etiquetas eliminadas del contacto correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST", "PUT"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PATCH, notAllowed as DELETE };
