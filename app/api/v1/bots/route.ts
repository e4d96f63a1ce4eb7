import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { listBotsQuery } from "@/lib/bots/schemas";
import { listBots } from "@/lib/bots/service";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = parseQuery(req, listBotsQuery);
  const result = await listBots({ ctx, input });
  return json({ message: "Bots obtenidos correctamente.", ...result });
});
