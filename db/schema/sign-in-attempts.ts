import { index, integer, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Sign-in throttle state (lib/auth/sign-in-throttle.ts), one row per key: `pair:<account>:<address>`
 * (one email from one client address) and `acct:<account>` (one email from anywhere), the email
 * as its SHA-256. `failures` counts consecutive wrong passwords since the last success, forgotten
 * after a quiet spell; `last_success_at` on a pair row marks the address as one the account signed
 * in from (such a pair is never slowed by other addresses' failures). Times are written from the
 * app's clock, like the rate limiter's windows. Created UNLOGGED by its migration: losing it in a
 * crash only forgets some delays.
 */
export const signInAttempts = pgTable(
  "sign_in_attempts",
  {
    key: text("key").primaryKey(),
    failures: integer("failures").notNull().default(0),
    lastFailureAt: timestamp("last_failure_at", { withTimezone: true }),
    lastSuccessAt: timestamp("last_success_at", { withTimezone: true }),
  },
  (t) => [index("sign_in_attempts_failure_idx").on(t.lastFailureAt), index("sign_in_attempts_success_idx").on(t.lastSuccessAt)],
);
