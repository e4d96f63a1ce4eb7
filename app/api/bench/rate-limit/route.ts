import { config } from "@/lib/config";
import { checkRateLimit } from "@/lib/rate-limit/service";

/**
 * The empty route plus one rate-limit check on a shared key: the bench compares it with
 * /api/bench/empty to price the limiter per request. 404 unless BENCH_ROUTES=1.
 */
export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  if (!config.benchRoutes) return Response.json({ message: "Not found" }, { status: 404 });
  const result = await checkRateLimit("bench:rate-limit", { limit: 1_000_000_000 });
  return Response.json({ ok: result.ok });
}
