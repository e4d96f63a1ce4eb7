import "server-only";
/** The SQLSTATE of a Postgres error in `err` or in a cause drizzle wrapped it in (postgres.js and PGlite alike). */
export function pgErrorCode(err: unknown): string | undefined {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** Whether `err` is a unique violation (23505). */
export function uniqueViolation(err: unknown): boolean {
  return pgErrorCode(err) === "23505";
}

/** Whether `err` is a foreign key violation (23503). */
export function foreignKeyViolation(err: unknown): boolean {
  return pgErrorCode(err) === "23503";
}

/**
 * Whether `err` says nothing about the work itself and the same transaction may simply be tried
 * again: a deadlock (40P01) or a serialization failure (40001).
 */
export function isRetryableTxError(err: unknown): boolean {
  const code = pgErrorCode(err);
  return code === "40P01" || code === "40001";
}

// Node socket errors and postgres.js's own codes for a connection that is gone or cannot be made.
const LOST_CONNECTION_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "CONNECTION_CLOSED",
  "CONNECTION_ENDED",
  "CONNECTION_DESTROYED",
  "CONNECT_TIMEOUT",
  // db/pooler-gate.ts: behind a transaction pooler, no connection of this process came free in time.
  "POOL_QUEUE_TIMEOUT",
  // db/circuit.ts: a connection could not be made a moment ago; no query is tried until one can.
  "DB_CIRCUIT_OPEN",
]);

// A connection that could not be made: the server is away (not merely busy, not one lost backend).
const CONNECT_FAILURE_CODES = new Set([
  "ECONNREFUSED",
  "ETIMEDOUT",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "CONNECT_TIMEOUT",
  // The server crashed or cannot take connections now. Not 57P01 (admin shutdown): that is also
  // what one backend ended by pg_terminate_backend gets, with the server well; a server shutting
  // down refuses the next connect anyway.
  "57P02",
  "57P03",
]);

/** Whether `err` (or a cause, or one of a dual-stack connect's errors) says no connection could be made. */
export function connectFailed(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown; errors?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (typeof e.code === "string" && CONNECT_FAILURE_CODES.has(e.code)) return true;
    if (Array.isArray(e.errors) && e.errors.some((x) => connectFailed(x))) return true;
  }
  return false;
}

/**
 * Whether `err` (or a cause drizzle wrapped it in) says the database cannot be reached right now:
 * a socket error, postgres.js's connection codes, or a Postgres SQLSTATE of class 08 (connection
 * exception), 57P01–57P03 (admin/crash shutdown, cannot connect now) or 53300 (too many clients).
 * Such a request is worth retrying in a few seconds: it answers 503 with Retry-After, not 500.
 */
export function connectionLost(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown; errors?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    const code = typeof e.code === "string" ? e.code : undefined;
    if (code && (LOST_CONNECTION_CODES.has(code) || /^08[0-9A-Z]{3}$/.test(code) || /^57P0[123]$/.test(code) || code === "53300"))
      return true;
    // Node's AggregateError of a failed dual-stack connect (ECONNREFUSED on ::1 and 127.0.0.1).
    if (Array.isArray(e.errors) && e.errors.some((x) => connectionLost(x))) return true;
  }
  return false;
}
