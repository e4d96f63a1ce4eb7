import { withAuth } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { createSandboxNumber } from "@/lib/numbers/settings-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

/** The team's sandbox number, as the demo's (no body: the service names and numbers it). */
export const POST = withAuth({ need: "numbers:admin" }, async ({ ctx }) => {
  const data = await createSandboxNumber({ ctx });
  return json({ message: "Número de pruebas creado correctamente.", data }, 201);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
