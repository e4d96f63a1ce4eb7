import { config } from "@/lib/config";
import { withAuth } from "@/lib/http/with-auth";

/**
 * The empty route behind `withAuth` with a bearer token: what authenticating a request costs on
 * its own (the token's cached lookup, its expiry check, the rate limit, the permission, the last
 * use noted after the answer). The bench compares it with /api/bench/empty. 404 unless
 * BENCH_ROUTES=1.
 */
export const dynamic = "force-dynamic";

const authenticated = withAuth({ need: "session:self" }, async () => Response.json({ ok: true }));

export async function GET(req: Request, route: { params: Promise<Record<string, never>> }): Promise<Response> {
  if (!config.benchRoutes) return Response.json({ message: "Not found" }, { status: 404 });
  return authenticated(req, route);
}
