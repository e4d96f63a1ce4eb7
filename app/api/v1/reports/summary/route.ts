import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { reportQuery } from "@/lib/reports/schemas";
import { reportSummary } from "@/lib/reports/service";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = parseQuery(req, reportQuery);
  const data = await reportSummary({ ctx, input });
  return json({ message: "Informe obtenido correctamente.", data });
});
