import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { listContactsQuery } from "@/lib/contacts/schemas";
import { listContacts } from "@/lib/contacts/service";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = parseQuery(req, listContactsQuery, { arrays: ["label_id"] });
  const result = await listContacts({ ctx, input });
  return json({ message: "Contactos obtenidos correctamente.", ...result });
});
