import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { createSavedReplyBody, listSavedRepliesQuery } from "@/lib/saved-replies/schemas";
import { createSavedReply, listSavedReplies } from "@/lib/saved-replies/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "saved_replies:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, listSavedRepliesQuery);
  const result = await listSavedReplies({ ctx, input });
  return json({ message: "Respuestas guardadas obtenidas correctamente.", ...result });
});

export const POST = withAuth({ need: "saved_replies:write" }, async ({ req, ctx }) => {
  const input = await parseJsonBody(req, createSavedReplyBody);
  const data = await createSavedReply({ ctx, input });
  return json({ message: "Respuesta guardada creada correctamente.", data }, 201);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "POST", "HEAD"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
