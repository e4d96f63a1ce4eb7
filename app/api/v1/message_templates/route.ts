import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { listTemplatesQuery } from "@/lib/templates/schemas";
import { listTemplates } from "@/lib/templates/service";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = parseQuery(req, listTemplatesQuery);
  const result = await listTemplates({ ctx, input });
  return json({ message: "Plantillas obtenidas correctamente.", ...result });
});
