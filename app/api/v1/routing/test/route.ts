import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { routingTestInput } from "@/lib/routing/schemas";
import { testRouting } from "@/lib/routing/settings-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const POST = withAuth({ need: "routing:admin" }, async ({ req, ctx }) => {
  const input = await parseJsonBody(req, routingTestInput);
  const data = await testRouting({ ctx, input });
  return json({ message: "Enrutamiento calculado correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
