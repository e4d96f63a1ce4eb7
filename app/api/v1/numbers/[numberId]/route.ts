import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { NUMBER_NOT_FOUND, updateNumberBody } from "@/lib/numbers/settings-schemas";
import { updateNumberSettings } from "@/lib/numbers/settings-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { numberId: string };

export const PATCH = withAuth<Params>({ need: "numbers:admin" }, async ({ req, ctx, params }) => {
  const id = parseId(params.numberId, NUMBER_NOT_FOUND);
  const changes = await parseJsonBody(req, updateNumberBody);
  const data = await updateNumberSettings({ ctx, input: { id, changes } });
  return json({ message: "Número actualizado correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["PATCH"]);
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as DELETE };
