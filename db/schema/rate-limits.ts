import { index, integer, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Fixed-window request counters (lib/rate-limit). One row per key and window. The API budget adds
 * each process's requests of a key in one upsert at most every 250 ms
 * (lib/rate-limit/local-budget.ts); a failure budget takes its slot in one conditional upsert per
 * attempt. Kept in Postgres so the budget holds across every web replica and on PGlite alike; rows
 * of past windows are deleted now and then (`window_start` index). The migration creates it
 * UNLOGGED (drizzle-kit cannot say so): a commit that wrote only to it waits for no WAL flush
 * (bench/log/2026-11-22-findings.md has the measurement), and losing a minute of counters in a crash is harmless.
 */
export const rateLimits = pgTable(
  "rate_limits",
  {
    key: text("key").notNull(),
    windowStart: timestamp("window_start", { withTimezone: true }).notNull(),
    count: integer("count").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.key, t.windowStart] }), index("rate_limits_window_idx").on(t.windowStart)],
);
