import { withAuth } from "@/lib/http/with-auth";
import { parseId } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { NUMBER_NOT_FOUND } from "@/lib/numbers/settings-schemas";
import { verifyNumber } from "@/lib/numbers/settings-service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

type Params = { numberId: string };

/** Asks Meta for the number with its token; Meta's refusal is in the answer (`verified: false`), not an error. */
export const POST = withAuth<Params>({ need: "numbers:admin" }, async ({ ctx, params }) => {
  const id = parseId(params.numberId, NUMBER_NOT_FOUND);
  const result = await verifyNumber({ ctx, input: { id } });
  return json(result);
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST"]);
export { notAllowed as GET, notAllowed as HEAD, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
