import { withAuth } from "@/lib/http/with-auth";
import { parseJsonBody, parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { BROADCASTS_FOUND, createBroadcastRequest, listBroadcastsQuery } from "@/lib/broadcasts/schemas";
import { createBroadcast, listBroadcasts } from "@/lib/broadcasts/service";

export const POST = withAuth(async ({ req, ctx }) => {
  const input = await parseJsonBody(req, createBroadcastRequest);
  const body = await createBroadcast({ ctx, input });
  return json(body, 201);
});

export const GET = withAuth(async ({ req, ctx }) => {
  const input = parseQuery(req, listBroadcastsQuery);
  const result = await listBroadcasts({ ctx, input });
  return json({ message: BROADCASTS_FOUND, ...result });
});
