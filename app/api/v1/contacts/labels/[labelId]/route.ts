import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { LABEL_NOT_FOUND, updateLabelBody } from "@/lib/labels/schemas";
import { deleteLabel, updateLabel } from "@/lib/labels/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { labelId: string };

export const PATCH = withAuth<Params>({ need: "labels:write" }, async ({ req, ctx, params }) => {
  const id = parseId(params.labelId, LABEL_NOT_FOUND);
  const changes = await parseJsonBody(req, updateLabelBody);
  const data = await updateLabel({ ctx, input: { id, changes } });
  return json({ message: "Etiqueta actualizada correctamente.", data });
});

export const DELETE = withAuth<Params>({ need: "labels:write" }, async ({ ctx, params }) => {
  const id = parseId(params.labelId, LABEL_NOT_FOUND);
  await deleteLabel({ ctx, input: { id } });
  return json({ message: "Etiqueta eliminada correctamente." });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["PATCH", "DELETE"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as POST, notAllowed as PUT };
