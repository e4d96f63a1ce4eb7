import { backoffMs } from "./backoff";

/**
 * What became of one claimed item: the one answer every kind of claimed work gives (sends,
 * outgoing webhook deliveries, read receipts), written by the one settle path (settle.ts):
 * - `ok`: done, with what the kind records of it (a send's provider id);
 * - `retry`: due again `afterMs` from now, its reason kept on the row meanwhile;
 * - `fail`: for good, with its reason;
 * - `release`: given back untouched, the attempt uncounted (a stopping worker's send that had not
 *   left; `held`: a send whose broadcast was paused or cancelled since the claim);
 * - `skip`: nothing to write (the row is no longer this claim's, or there is nothing to do).
 */
export type Outcome<Ok extends object = object, Reason = unknown> =
  | ({ kind: "ok" } & Ok)
  | { kind: "retry"; afterMs: number; reason: Reason }
  | { kind: "fail"; reason: Reason }
  | { kind: "release"; held?: boolean }
  | { kind: "skip" };

export type OutcomeKind = Outcome["kind"];

export const skip = { kind: "skip" } as const;

/** Attempts and backoff of one kind of claimed work. */
export type RetryPolicy = { maxAttempts: number; baseMs: number; capMs: number };

/**
 * A try that did not go through: retried while it may go through later and attempts remain,
 * after a full-jitter backoff (backoff.ts; the provider's Retry-After and `floorMs` are floors),
 * else failed for good with its reason.
 */
export function retryOrFail<R>(
  attempts: number,
  p: RetryPolicy,
  f: { retryable: boolean; reason: R; retryAfterMs?: number; floorMs?: number },
): Extract<Outcome<object, R>, { kind: "retry" | "fail" }> {
  if (!f.retryable || attempts >= p.maxAttempts) return { kind: "fail", reason: f.reason };
  const delay = backoffMs(attempts, p.baseMs, p.capMs, f.retryAfterMs);
  return { kind: "retry", afterMs: Math.max(delay, f.floorMs ?? 0), reason: f.reason };
}
