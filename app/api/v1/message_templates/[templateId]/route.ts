import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { deleteTemplate } from "@/lib/templates/editor-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { templateId: string };

export const DELETE = withAuth<Params>({ need: "templates:write" }, async ({ ctx, params }) => {
  const data = await deleteTemplate({ ctx, input: { templateId: params.templateId } });
  return json({ message: "Plantilla borrada correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["DELETE"]);
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
