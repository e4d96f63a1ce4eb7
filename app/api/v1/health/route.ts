import { withErrors } from "@/lib/http/with-auth";
import { json } from "@/lib/http/respond";
import { checkHealth } from "@/lib/health/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

/** Public and unauthenticated (load balancers, the operator): it tells nothing about any team. */
export const GET = withErrors(async () => {
  const { status, body } = await checkHealth();
  return json(body, status, { "cache-control": "no-store" });
});

const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
