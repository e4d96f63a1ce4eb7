/**
 * The framework's ceiling for `npm run bench`: a route handler that does nothing. It exists only
 * when the server runs with BENCH_ROUTES=1 (the bench sets it); elsewhere it is a plain 404.
 * The pid header lets the bench see which process of a cluster answered.
 */
import { config } from "@/lib/config";

export const dynamic = "force-dynamic";

export function GET(): Response {
  if (!config.benchRoutes) return Response.json({ message: "Not found" }, { status: 404 });
  return Response.json({ ok: true }, { headers: { "x-served-by": String(process.pid) } });
}
