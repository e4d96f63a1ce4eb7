import { withAuth } from "@/lib/http/with-auth";
import { parseQuery } from "@/lib/http/parse";
import { json } from "@/lib/http/respond";
import { messageStatsQuery } from "@/lib/messages/stats-schemas";
import { messageStats } from "@/lib/messages/stats-service";

export const GET = withAuth(async ({ req, ctx }) => {
  const input = parseQuery(req, messageStatsQuery);
  const data = await messageStats({ ctx, input });
  return json({ message: "Estadísticas de mensajes obtenidas correctamente.", data });
});
