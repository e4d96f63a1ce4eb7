import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { listTemplatesQuery } from "@/lib/templates/schemas";
import { listTemplates } from "@/lib/templates/service";
import { templateDraftSchema } from "@/lib/templates/draft-schema";
import { submitTemplateDraft } from "@/lib/templates/editor-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "templates:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, listTemplatesQuery);
  const result = await listTemplates({ ctx, input });
  return json({ message: "Plantillas obtenidas correctamente.", ...result });
});

export const POST = withAuth({ need: "templates:write" }, async ({ req, ctx }) => {
  const input = await parseJsonBody(req, templateDraftSchema);
  const data = await submitTemplateDraft({ ctx, input });
  return json({ message: "Plantilla enviada a Meta para su revisión.", data }, 201);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD", "POST"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
