import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { SAVED_REPLY_NOT_FOUND, updateSavedReplyBody } from "@/lib/saved-replies/schemas";
import { deleteSavedReply, getSavedReply, updateSavedReply } from "@/lib/saved-replies/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { savedReplyId: string };

export const GET = withAuth<Params>({ need: "saved_replies:read" }, async ({ ctx, params }) => {
  const data = await getSavedReply({ ctx, input: { id: parseId(params.savedReplyId, SAVED_REPLY_NOT_FOUND) } });
  return json({ message: "Respuesta guardada obtenida correctamente.", data });
});

export const PATCH = withAuth<Params>({ need: "saved_replies:write" }, async ({ req, ctx, params }) => {
  const id = parseId(params.savedReplyId, SAVED_REPLY_NOT_FOUND);
  const changes = await parseJsonBody(req, updateSavedReplyBody);
  const data = await updateSavedReply({ ctx, input: { id, changes } });
  return json({ message: "Respuesta guardada actualizada correctamente.", data });
});

export const DELETE = withAuth<Params>({ need: "saved_replies:write" }, async ({ ctx, params }) => {
  await deleteSavedReply({ ctx, input: { id: parseId(params.savedReplyId, SAVED_REPLY_NOT_FOUND) } });
  return json({ message: "Respuesta guardada eliminada correctamente." });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "PATCH", "DELETE", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT };
