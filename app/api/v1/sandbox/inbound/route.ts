import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { sandboxInboundInput } from "@/lib/webhooks/schemas";
import { injectSandboxInbound } from "@/lib/webhooks/sandbox";

export const POST = withAuth(async ({ req, ctx }) => {
  const input = await parseJsonBody(req, sandboxInboundInput);
  const data = await injectSandboxInbound({ ctx, input });
  return json({ message: "Mensaje entrante simulado correctamente.", data });
});
