import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { templateChangesQuery } from "@/lib/templates/sync-schemas";
import { listTemplateChangesOf } from "@/lib/templates/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { templateId: string };

export const GET = withAuth<Params>({ need: "templates:read" }, async ({ req, ctx, params }) => {
  const query = parseQuery(req, templateChangesQuery);
  const result = await listTemplateChangesOf({ ctx, input: { templateId: params.templateId, ...query } });
  return json({ message: "Cambios de la plantilla obtenidos correctamente.", ...result });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
