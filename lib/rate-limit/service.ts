import "server-only";
import type { AuthContext } from "@/lib/auth/context";
import { getDb, type Db } from "@/db/client";
import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { addToWindow, deleteWindowsBefore } from "./repo";
import { flushRateLimits, LocalBudget, processBudget } from "./local-budget";

export type RateLimitResult = {
  ok: boolean;
  /** Requests allowed per window; 0 means limiting is off. */
  limit: number;
  remaining: number;
  /** Seconds until the current window ends and the budget is full again. */
  resetSeconds: number;
};

export type RateLimitOptions = {
  limit?: number;
  windowSeconds?: number;
  /** Epoch milliseconds; tests pin it to cross window boundaries. */
  now?: number;
  /** Another process's counter (tests: a second limiter on its own connection); this process's by default. */
  limiter?: LocalBudget;
};

/** `RATE_LIMIT_PER_MINUTE` per token (default 600); 0 turns limiting off. */
export function rateLimitPerMinute(): number {
  return config.rateLimitPerMinute;
}

/** The budget is per API token; a dashboard session gets its own, so agents never share one. */
export function rateLimitKey(ctx: AuthContext): string {
  return ctx.actor.kind === "token" ? `token:${ctx.actor.tokenId}` : `session:${ctx.actor.sessionId}`;
}

const OFF: RateLimitResult = { ok: true, limit: 0, remaining: 0, resetSeconds: 0 };

// Past windows are swept by the first statement of each minute in this process, so the table holds
// a few rows per active key whatever the traffic. The cutoff leaves every live window alone, even
// when callers use different window lengths: the failure budgets (keys `fail:…`, lib/rate-limit/
// failures.ts) read their 15-minute window and the one before, so they are kept 45 minutes whatever
// window the sweeping caller uses.
const SWEEP_MS = 60_000;
export const LONG_KEY_PREFIX = "fail:";
const LONG_KEEP_MS = 45 * 60_000;
let lastSweep = 0;

export function sweep(windowMs: number) {
  const now = Date.now();
  if (now - lastSweep < SWEEP_MS) return;
  lastSweep = now;
  const cutoff = new Date(now - 2 * Math.max(windowMs, SWEEP_MS));
  const longCutoff = new Date(now - Math.max(LONG_KEEP_MS, 2 * windowMs));
  getDb()
    .then((db) => deleteWindowsBefore(db, { cutoff, longPrefix: LONG_KEY_PREFIX, longCutoff }))
    .catch(() => {});
}

/** The shared count of a key's window on `db`, for a limiter of its own (tests: a second replica). */
export const sharedCountOn =
  (db: Db | (() => Promise<Db>)) =>
  async (key: string, windowStart: Date, delta: number): Promise<number> =>
    addToWindow(typeof db === "function" ? await db() : db, { key, windowStart, delta });

const processLimiter = () => processBudget(() => new LocalBudget({ add: sharedCountOn(getDb), afterStatement: sweep }));
export { flushRateLimits };

/**
 * Fixed-window limiter whose count is shared by every replica through Postgres (table
 * `rate_limits`) but counted in each process between statements: see lib/rate-limit/local-budget.ts
 * and docs/auth-limits.md for how it stays within a few percent of the limit. A request makes no
 * statement of its own; each key's count goes to the table at most every 250 ms. Windows are
 * aligned to the epoch on the server clock: replicas agree on them as long as their clocks do
 * (NTP keeps the skew to milliseconds).
 */
export async function checkRateLimit(key: string, opts: RateLimitOptions = {}): Promise<RateLimitResult> {
  const limit = opts.limit ?? rateLimitPerMinute();
  if (limit <= 0) return OFF;
  const windowMs = (opts.windowSeconds ?? 60) * 1000;
  const now = opts.now ?? Date.now();
  const start = Math.floor(now / windowMs) * windowMs;
  const taken = (opts.limiter ?? processLimiter()).take(key, start, windowMs, limit);
  const { ok, remaining } = taken instanceof Promise ? await taken : taken;
  return { ok, limit, remaining, resetSeconds: Math.max(1, Math.ceil((start + windowMs - now) / 1000)) };
}

/** The `X-RateLimit-*` headers of every answer (none when limiting is off). */
export function rateLimitHeaders(result: RateLimitResult): Record<string, string> {
  if (result.limit <= 0) return {};
  const headers: Record<string, string> = {
    "X-RateLimit-Limit": String(result.limit),
    "X-RateLimit-Remaining": String(result.remaining),
    "X-RateLimit-Reset": String(result.resetSeconds),
  };
  if (!result.ok) headers["Retry-After"] = String(result.resetSeconds);
  return headers;
}

export const tooManyRequestsMessage = (seconds: number) => `Demasiadas solicitudes. Intente de nuevo en ${seconds} segundos.`;

/** The 429 to throw when `checkRateLimit` says no; it carries its own headers. */
export function rateLimitError(result: RateLimitResult): ApiError {
  return new ApiError(429, tooManyRequestsMessage(result.resetSeconds), undefined, rateLimitHeaders(result));
}

/** Copies the limiter's headers onto a finished answer (success or error alike). */
export function withRateLimitHeaders(res: Response, result: RateLimitResult | undefined): Response {
  if (!result) return res;
  for (const [k, v] of Object.entries(rateLimitHeaders(result))) res.headers.set(k, v);
  return res;
}
