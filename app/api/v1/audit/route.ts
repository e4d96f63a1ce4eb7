import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { csvHeaders } from "@/lib/http/csv";
import { auditQuery } from "@/lib/audit/schemas";
import { exportAudit, listAudit } from "@/lib/audit/service";
import { methodNotAllowed } from "@/lib/http/method-not-allowed";

/** JSON pages, or the whole filtered trail as CSV with `?format=csv` or `Accept: text/csv`. */
export const GET = withAuth({ need: "audit:read" }, async ({ req, ctx }) => {
  const { format, ...input } = parseQuery(req, auditQuery);
  const wantsCsv = format === "csv" || (!format && (req.headers.get("accept") ?? "").includes("text/csv"));
  if (wantsCsv) return new Response(exportAudit({ ctx, input }), { headers: csvHeaders("audit.csv") });
  const result = await listAudit({ ctx, input });
  return json({ message: "Registro de auditoría obtenido correctamente.", ...result });
});

// Any other method: the API's JSON 405 (Next's own is an empty body).
const notAllowed = methodNotAllowed(["GET", "HEAD"]);
export { notAllowed as POST, notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE };
