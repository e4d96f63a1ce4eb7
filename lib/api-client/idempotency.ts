/**
 * A fresh Idempotency-Key for one submit attempt (crypto.randomUUID needs a secure context;
 * getRandomValues does not). A form keeps it while the values stay the same, so a retry after a
 * lost answer is performed at most once, and takes a new one when they change.
 */
export function newIdempotencyKey(prefix: string): string {
  const b = crypto.getRandomValues(new Uint8Array(16));
  return `${prefix}-${Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("")}`;
}
