import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { BOT_NOT_FOUND, updateBotInput } from "@/lib/bots/schemas";
import { deleteBot, updateBot } from "@/lib/bots/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { botId: string };

export const PATCH = withAuth<Params>({ need: "routing:admin" }, async ({ req, ctx, params }) => {
  const id = parseId(params.botId, BOT_NOT_FOUND);
  const input = await parseJsonBody(req, updateBotInput);
  const data = await updateBot({ ctx, input: { ...input, id } });
  return json({ message: "Bot actualizado correctamente.", data });
});

export const DELETE = withAuth<Params>({ need: "routing:admin" }, async ({ ctx, params }) => {
  const id = parseId(params.botId, BOT_NOT_FOUND);
  const data = await deleteBot({ ctx, input: { id } });
  return json({ message: "Bot eliminado correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["PATCH", "DELETE"]);
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT };
