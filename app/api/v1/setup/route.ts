import { withErrors } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { clientAddress } from "@/lib/http/client-address";
import { sessionCookie } from "@/lib/auth/session-service";
import { setupBody } from "@/lib/setup/schemas";
import { runSetup, setupNeeded } from "@/lib/setup/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

/** Whether the first-run set-up is still to do (no team yet): the sign-in and set-up pages ask. */
export const GET = withErrors(async () => {
  const needed = await setupNeeded();
  return json({ message: needed ? "Configuración inicial pendiente." : "Configuración inicial hecha.", data: { needed } });
});

/**
 * Creates the first team and its owner, and signs the owner in. Once any team exists every post
 * answers 409 whatever it carries: the body is read (with its one schema) only while the set-up is open.
 */
export const POST = withErrors(async ({ req }) => {
  const { token, data } = await runSetup({ input: () => parseJsonBody(req, setupBody), address: clientAddress(req) });
  return json({ message: "Equipo creado. Sesión iniciada.", data }, 201, { "set-cookie": sessionCookie(req, token) });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD", "POST"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
