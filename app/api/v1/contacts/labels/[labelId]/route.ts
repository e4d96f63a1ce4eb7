import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { LABEL_NOT_FOUND, updateLabelBody } from "@/lib/labels/schemas";
import { deleteLabel, updateLabel } from "@/lib/labels/service";

type Params = { labelId: string };

export const PATCH = withAuth<Params>(async ({ req, ctx, params }) => {
  const id = parseId(params.labelId, LABEL_NOT_FOUND);
  const changes = await parseJsonBody(req, updateLabelBody);
  const data = await updateLabel({ ctx, input: { id, changes } });
  return json({ message: "Etiqueta actualizada correctamente.", data });
});

export const DELETE = withAuth<Params>(async ({ ctx, params }) => {
  const id = parseId(params.labelId, LABEL_NOT_FOUND);
  await deleteLabel({ ctx, input: { id } });
  return json({ message: "Etiqueta eliminada correctamente." });
});
