import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { createLabelBody, listLabelsQuery } from "@/lib/labels/schemas";
import { createLabel, listLabels } from "@/lib/labels/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "labels:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, listLabelsQuery);
  const result = await listLabels({ ctx, input });
  return json({ message: "Etiquetas obtenidas correctamente.", ...result });
});

export const POST = withAuth({ need: "labels:write" }, async ({ req, ctx }) => {
  const input = await parseJsonBody(req, createLabelBody);
  const data = await createLabel({ ctx, input });
  return json({ message: "Etiqueta creada correctamente.", data }, 201);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "POST", "HEAD"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
