import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { sandboxInboundInput } from "@/lib/meta-webhooks/schemas";
import { injectSandboxInbound } from "@/lib/meta-webhooks/sandbox-inbound-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const POST = withAuth({ need: "sandbox:write" }, async ({ req, ctx }) => {
  const input = await parseJsonBody(req, sandboxInboundInput);
  const data = await injectSandboxInbound({ ctx, input });
  return json({ message: "Mensaje entrante simulado correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
