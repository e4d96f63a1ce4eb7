import { withAuth } from "@/lib/http/with-auth";
import { parseId, parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { rollTokenBody, TOKEN_NOT_FOUND } from "@/lib/api-tokens/schemas";
import { rollApiToken } from "@/lib/api-tokens/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { tokenId: string };

export const POST = withAuth<Params>({ need: "tokens:write" }, async ({ req, ctx, params }) => {
  const id = parseId(params.tokenId, TOKEN_NOT_FOUND);
  const changes = await parseJsonBody(req, rollTokenBody);
  const data = await rollApiToken({ ctx, input: { id, changes } });
  return json({ message: "Token renovado correctamente. Guarde el nuevo ahora: no se volverá a mostrar.", data }, 201);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
