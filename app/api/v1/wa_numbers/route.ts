import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { listWaNumbersQuery } from "@/lib/numbers/schemas";
import { listWaNumbers } from "@/lib/numbers/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "numbers:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, listWaNumbersQuery);
  const result = await listWaNumbers({ ctx, input });
  return json({ message: "Números obtenidos correctamente.", ...result });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
