import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { createLabelBody, listLabelsQuery } from "@/lib/labels/schemas";
import { createLabel, listLabels } from "@/lib/labels/service";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = parseQuery(req, listLabelsQuery);
  const result = await listLabels({ ctx, input });
  return json({ message: "Etiquetas obtenidas correctamente.", ...result });
});

export const POST = withAuth(async ({ req, ctx }) => {
  const input = await parseJsonBody(req, createLabelBody);
  const data = await createLabel({ ctx, input });
  return json({ message: "Etiqueta creada correctamente.", data }, 201);
});
