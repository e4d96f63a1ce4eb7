/**
 * Bounds of the database's integer columns. A JSON or query integer beyond them reaches Postgres
 * as an out-of-range value (22003) and used to answer 500; every zod schema whose value lands in
 * such a column caps it here, so it answers 422 instead.
 */
/** Largest value of a Postgres `integer` (serial ids, counts). */
export const PG_INT_MAX = 2147483647;
/** Largest id of a `bigserial` column we accept from a client: the largest exact JS integer. */
export const BIGINT_ID_MAX = Number.MAX_SAFE_INTEGER;
