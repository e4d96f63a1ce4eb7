import { getDb } from "@/db/client";
import { touchToken } from "./repo";

/**
 * `api_tokens.last_used_at`, kept to the minute at a price the hot path does not feel: each
 * process writes it at most once a minute per token, after the answer (withAuth calls this once
 * the handler has answered; the write waits for the next turn of the event loop), on its own
 * statement outside any transaction of the request, and nobody awaits it. The UPDATE itself
 * skips a row touched less than a minute ago (lib/auth/repo.ts), so many processes cost about one
 * row version a minute. A failed write is logged by token id and lost: the next minute's
 * use writes it again.
 */
export const TOUCH_EVERY_MS = 60_000;
const MAX_TRACKED = 10_000;

type Usage = { lastTouch: Map<number, number>; pending: Set<Promise<void>> };
// Dev reloads modules; the minute's memory must survive them like the token cache.
const g = globalThis as unknown as { __waTokenUsage?: Usage };
const usage: Usage = (g.__waTokenUsage ??= { lastTouch: new Map(), pending: new Set() });

/** Notes a use of the token; writes `last_used_at` unless this process did so within the minute. */
export function noteTokenUse(tokenId: number, now = Date.now()): void {
  const last = usage.lastTouch.get(tokenId);
  if (last !== undefined && now - last < TOUCH_EVERY_MS) return;
  if (usage.lastTouch.size >= MAX_TRACKED) usage.lastTouch.clear();
  usage.lastTouch.set(tokenId, now);
  const write = new Promise<void>((resolve) => setImmediate(resolve))
    .then(() => getDb())
    .then((db) => touchToken(db, tokenId))
    .catch((err) => {
      // The minute is given back, so the next use tries again.
      if (usage.lastTouch.get(tokenId) === now) usage.lastTouch.delete(tokenId);
      console.error(`[auth] last_used_at of token ${tokenId} not written:`, err instanceof Error ? err.message : err);
    })
    .finally(() => usage.pending.delete(write));
  usage.pending.add(write);
}

/** Resolves once every write noted so far is done (the shutdown drain and the tests wait for them). */
export async function settleTokenTouches(): Promise<void> {
  while (usage.pending.size) await Promise.all([...usage.pending]);
}
