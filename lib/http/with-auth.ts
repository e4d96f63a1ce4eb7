import { authenticate } from "@/lib/auth/authenticate";
import type { AuthContext } from "@/lib/auth/context";
import { authorize, type Permission } from "@/lib/auth/permissions";
import { checkRateLimit, rateLimitError, rateLimitKey, withRateLimitHeaders, type RateLimitResult } from "@/lib/rate-limit/service";
import { noteTeamWrite } from "@/db/client";
import { noteTokenUse } from "@/lib/auth/token-usage";
import { toErrorResponse } from "./respond";

type RouteArgs<P> = { params: Promise<P> };

/**
 * The one auth wrapper of /api/v1 (after dub's `withWorkspace`): authenticates the caller
 * (bearer token or agent session), spends one request of its rate-limit budget (429 past it;
 * `X-RateLimit-*` on every answer), checks that the caller's role or token scopes grant the
 * permission the route needs (`need`, lib/auth/permissions.ts: 403 otherwise, before the handler
 * reads anything), hands the tenant context to the handler, and maps every thrown error through
 * `toErrorResponse`. After any request that may have written (not GET or
 * HEAD), the team's next reads in this process see its writes (read replica: db/client.ts). A
 * token's use is noted after the answer (its `last_used_at`, lib/auth/token-usage.ts).
 */
export function withAuth<P extends Record<string, string | string[]> = Record<string, never>>(
  { need }: { need: Permission },
  handler: (args: { req: Request; ctx: AuthContext; params: P }) => Promise<Response>,
) {
  return async (req: Request, route: RouteArgs<P>): Promise<Response> => {
    let limit: RateLimitResult | undefined;
    let params: P | undefined;
    let teamId: number | undefined;
    let tokenId: number | undefined;
    try {
      params = await route.params;
      const ctx = await authenticate(req);
      if (ctx.actor.kind === "token") tokenId = ctx.actor.tokenId;
      limit = await checkRateLimit(rateLimitKey(ctx));
      if (!limit.ok) throw rateLimitError(limit);
      authorize(ctx, need);
      teamId = ctx.teamId;
      return withRateLimitHeaders(await handler({ req, ctx, params }), limit);
    } catch (err) {
      return withRateLimitHeaders(toErrorResponse(err, { req, params }), limit);
    } finally {
      // Also after an error: a failed request may have committed part of its work.
      if (teamId !== undefined && req.method !== "GET" && req.method !== "HEAD") noteTeamWrite(teamId);
      // After the answer, never awaited: at most one write a minute per token (token-usage.ts).
      if (tokenId !== undefined) noteTokenUse(tokenId);
    }
  };
}

/** For the few public routes (webhooks, OpenAPI): same error mapping, no caller identity. */
export function withErrors<P extends Record<string, string | string[]> = Record<string, never>>(
  handler: (args: { req: Request; params: P }) => Promise<Response>,
) {
  return async (req: Request, route: RouteArgs<P>): Promise<Response> => {
    let params: P | undefined;
    try {
      params = await route.params;
      return await handler({ req, params });
    } catch (err) {
      return toErrorResponse(err, { req, params });
    }
  };
}
