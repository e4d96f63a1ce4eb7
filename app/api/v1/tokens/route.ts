import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { createTokenBody } from "@/lib/api-tokens/schemas";
import { createApiToken, listTokens } from "@/lib/api-tokens/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const GET = withAuth({ need: "tokens:read" }, async ({ ctx }) => {
  const data = await listTokens({ ctx });
  return json({ message: "Tokens obtenidos correctamente.", data });
});

export const POST = withAuth({ need: "tokens:write" }, async ({ req, ctx }) => {
  const input = await parseJsonBody(req, createTokenBody);
  const data = await createApiToken({ ctx, input });
  return json({ message: "Token creado correctamente. Guárdelo ahora: no se volverá a mostrar.", data }, 201);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "POST", "HEAD"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
