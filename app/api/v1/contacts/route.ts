import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { csvHeaders } from "@/lib/http/csv";
import { listContactsQuery } from "@/lib/contacts/schemas";
import { listContacts } from "@/lib/contacts/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";
import { contactsCsv } from "@/lib/contacts/export-service";

/** JSON pages, or every contact of the filter as CSV with `?format=csv`. */
export const GET = withAuth({ need: "contacts:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, listContactsQuery, { arrays: ["label_id"] });
  if (input.format === "csv") return new Response(await contactsCsv({ ctx, input }), { headers: csvHeaders("contactos.csv") });
  const result = await listContacts({ ctx, input });
  return json({ message: "Contactos obtenidos correctamente.", ...result });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
