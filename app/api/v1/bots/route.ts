import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { createBotInput, listBotsQuery } from "@/lib/bots/schemas";
import { createBot, listBots } from "@/lib/bots/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "routing:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, listBotsQuery);
  const result = await listBots({ ctx, input });
  return json({ message: "Bots obtenidos correctamente.", ...result });
});

export const POST = withAuth({ need: "routing:admin" }, async ({ req, ctx }) => {
  const input = await parseJsonBody(req, createBotInput);
  const data = await createBot({ ctx, input });
  return json({ message: "Bot creado correctamente.", data }, 201);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "POST", "HEAD"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
