import { withAuth } from "@/lib/http/with-auth";
import { parseQuery, readJson } from "@/lib/http/parse";
import { idempotencyOf } from "@/lib/idempotency/service";
import { json } from "@/lib/http/respond";
import { BROADCASTS_FOUND, createBroadcastRequest, listBroadcastsQuery } from "@/lib/broadcasts/schemas";
import { createBroadcast, listBroadcasts } from "@/lib/broadcasts/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

export const POST = withAuth({ need: "broadcasts:write" }, async ({ req, ctx }) => {
  // The raw body is kept: an Idempotency-Key stands for the request as sent, not as parsed.
  const raw = await readJson(req);
  const idempotency = idempotencyOf(req, "POST /api/v1/broadcasts", raw);
  const input = createBroadcastRequest.parse(raw);
  const { replayed, ...body } = await createBroadcast({ ctx, input, idempotency });
  return json(body, 201, replayed ? { "idempotent-replayed": "true" } : undefined);
});

export const GET = withAuth({ need: "broadcasts:read" }, async ({ req, ctx }) => {
  const input = parseQuery(req, listBroadcastsQuery);
  const result = await listBroadcasts({ ctx, input });
  return json({ message: BROADCASTS_FOUND, ...result });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["POST", "GET", "HEAD"]);
export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
