import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { syncTemplatesQuery } from "@/lib/templates/sync-schemas";
import { listTeamTemplateSyncs, syncTeamTemplates } from "@/lib/templates/sync-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const POST = withAuth({ need: "templates:write" }, async ({ req, ctx }) => {
  const input = parseQuery(req, syncTemplatesQuery);
  const data = await syncTeamTemplates({ ctx, input });
  return json({ message: "Sincronización con Meta terminada.", data });
});

export const GET = withAuth({ need: "templates:read" }, async ({ ctx }) => {
  const data = await listTeamTemplateSyncs({ ctx });
  return json({ message: "Sincronizaciones obtenidas correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD", "POST"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
