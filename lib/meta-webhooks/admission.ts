import { config } from "@/lib/config";
import { ApiError } from "@/lib/http/errors";
import { SERVICE_UNAVAILABLE } from "@/lib/http/respond";

/**
 * How many of Meta's webhook posts one process works on at once (WEBHOOK_MAX_IN_FLIGHT).
 *
 * Why: after an outage or a restart Meta redelivers its whole backlog at once, and every post
 * costs a read of its body, a signature check and a place in the status group commit
 * (lib/delivery/status-batch.ts). Unbounded, they all wait together: each answer comes after all
 * the work queued before it, past the client's patience, and the client's retries queue behind
 * work nobody is waiting for any more (an outage replayed: no webhook answered within 10 s for
 * over a minute). Bounded, a post past the limit is answered 503 with Retry-After before its body
 * is read (the connection then closes: lib/http/connection-limits.ts), Meta redelivers it later,
 * and the admitted ones are answered within the time their batches take.
 */
type State = { inFlight: number; shed: number; since: Map<number, number>; next: number };
const g = globalThis as unknown as { __waWebhookAdmission?: State };
const state = () => (g.__waWebhookAdmission ??= { inFlight: 0, shed: 0, since: new Map(), next: 0 });

/**
 * The count alone does not bound the wait: on a slow or starved machine even a short queue can
 * take seconds. So a post is also shed while the oldest one in flight has waited longer than
 * this (a standing queue, as CoDel reads it), once at least MIN_IN_FLIGHT are in: Meta's
 * retries come back when the queue has drained, and the ones taken are answered in time.
 */
const QUEUE_TARGET_MS = 500;
const MIN_IN_FLIGHT = 8;

/** Seconds Meta is asked to wait before posting again a webhook shed here. */
export const WEBHOOK_BUSY_RETRY_AFTER_S = 5;

/**
 * A place for one post, or the 503 to answer when all are taken. `release` gives the place back
 * (once: later calls do nothing) when the post is answered or its client has gone.
 */
export function admitWebhook(): { release: () => void } {
  const s = state();
  const now = performance.now();
  // The Map keeps insertion order: its first entry is the oldest post still in flight.
  const oldest = s.since.values().next().value;
  const queued = s.inFlight >= MIN_IN_FLIGHT && oldest !== undefined && now - oldest > QUEUE_TARGET_MS;
  if (s.inFlight >= config.webhookMaxInFlight || queued) {
    s.shed++;
    throw new ApiError(503, SERVICE_UNAVAILABLE, undefined, { "retry-after": String(WEBHOOK_BUSY_RETRY_AFTER_S) });
  }
  s.inFlight++;
  const id = s.next++;
  s.since.set(id, now);
  let held = true;
  return {
    release: () => {
      if (!held) return;
      held = false;
      s.inFlight--;
      s.since.delete(id);
    },
  };
}

/** Posts being worked on now, and posts shed since the process started (tests, diagnostics). */
export function webhookAdmission(): { inFlight: number; shed: number } {
  const { inFlight, shed } = state();
  return { inFlight, shed };
}

/**
 * Thrown when a post's client hung up before its statuses were applied: they are left for Meta's
 * redelivery (it got no answer). An ApiError, so the route's error path answers (to nobody) the
 * shed post's 503 rather than logging an unexpected error; the fast lane writes nothing.
 */
export class ClientGoneError extends ApiError {
  constructor() {
    super(503, SERVICE_UNAVAILABLE, undefined, { "retry-after": String(WEBHOOK_BUSY_RETRY_AFTER_S) });
    this.name = "ClientGoneError";
  }
}
