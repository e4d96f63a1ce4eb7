import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { listWaNumbersQuery } from "@/lib/numbers/schemas";
import { listWaNumbers } from "@/lib/numbers/service";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = parseQuery(req, listWaNumbersQuery);
  const result = await listWaNumbers({ ctx, input });
  return json({ message: "Números obtenidos correctamente.", ...result });
});
