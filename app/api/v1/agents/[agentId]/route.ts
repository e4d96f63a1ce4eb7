import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { AGENT_NOT_FOUND, updateAgentBody } from "@/lib/agents/schemas";
import { updateAgent } from "@/lib/agents/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { agentId: string };

export const PATCH = withAuth<Params>({ need: "agents:write" }, async ({ req, ctx, params }) => {
  const agentId = parseId(params.agentId, AGENT_NOT_FOUND);
  const changes = await parseJsonBody(req, updateAgentBody);
  const data = await updateAgent({ ctx, input: { agentId, changes } });
  const message =
    changes.active === undefined
      ? "Rol del agente actualizado correctamente."
      : changes.active
        ? "Agente reactivado correctamente."
        : "Agente desactivado correctamente.";
  return json({ message, data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["PATCH"]);
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as DELETE };
