import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { updateParams } from "@/lib/delivery/updates-schemas";
import { getUpdate } from "@/lib/delivery/updates-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth<{ update_id: string }>({ need: "updates:read" }, async ({ ctx, params }) => {
  const input = updateParams.parse(params);
  const data = await getUpdate({ ctx, input });
  return json({ message: "Actualización obtenida correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
