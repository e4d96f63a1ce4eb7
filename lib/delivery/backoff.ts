/**
 * Exponential backoff with full jitter (AWS architecture blog): a uniform delay in
 * [0, min(cap, base·2^(attempt-1))], so many messages failing together spread out instead of
 * retrying in lockstep. A provider's Retry-After is a floor.
 */
export function backoffMs(attempt: number, baseMs: number, capMs: number, retryAfterMs?: number, random = Math.random): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  const delay = random() * ceiling;
  return retryAfterMs ? Math.max(retryAfterMs, delay) : delay;
}
