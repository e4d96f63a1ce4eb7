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
