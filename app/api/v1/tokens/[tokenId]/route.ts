import { withAuth } from "@/lib/http/with-auth";
import { parseId } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { TOKEN_NOT_FOUND } from "@/lib/api-tokens/schemas";
import { revokeApiToken } from "@/lib/api-tokens/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { tokenId: string };

export const DELETE = withAuth<Params>({ need: "tokens:write" }, async ({ ctx, params }) => {
  const id = parseId(params.tokenId, TOKEN_NOT_FOUND);
  const data = await revokeApiToken({ ctx, input: { id } });
  return json({ message: "Token revocado correctamente.", data });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["DELETE"]);
export { notAllowed as GET, notAllowed as POST, notAllowed as PUT, notAllowed as PATCH };
