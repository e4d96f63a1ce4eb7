import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { CONVERSATION_NOT_FOUND } from "@/lib/conversations/schemas";
import { createNoteBody } from "@/lib/notes/schemas";
import { createNote, listNotes } from "@/lib/notes/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth<{ conversationId: string }>({ need: "conversations:read" }, async ({ ctx, params }) => {
  const data = await listNotes({ ctx, input: { conversationId: parseId(params.conversationId, CONVERSATION_NOT_FOUND) } });
  return json({ message: "Notas obtenidas correctamente.", data });
});

export const POST = withAuth<{ conversationId: string }>({ need: "conversations:write" }, async ({ req, ctx, params }) => {
  const conversationId = parseId(params.conversationId, CONVERSATION_NOT_FOUND);
  const body = await parseJsonBody(req, createNoteBody);
  const data = await createNote({ ctx, input: { conversationId, ...body } });
  return json({ message: "Nota creada correctamente.", data }, 201);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "POST", "HEAD"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
