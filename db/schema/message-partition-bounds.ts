import { bigint, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * Per partition of `messages` (migration 0037), its id range and bounds of its rows' created_at,
 * so that a history window (a created_at range) can be turned into an id range that prunes the
 * partitions by id (lib/messages/history-bounds.ts, docs/write-path.md, "History pages prune by id").
 *
 * The bounds are conservative, never exact: `min_created_at` is at or before every row's
 * created_at, `max_created_at` at or after it (both null: no row yet). They are kept in the
 * writer's own transaction by the triggers of db/functions/message_partition_bounds.sql (every
 * insert, every change of id or created_at, hand-written SQL included), and they only widen:
 * rows whose created_at does not follow their id (clock skew, imports, a late transaction) widen
 * their partition's bounds instead of being lost. Widening is rounded out to whole UTC days, so
 * the partition being written is updated about once a day, not on every insert.
 * `lo`/`hi` are the partition's id range [lo, hi) (-2^31 and 2^31 for MINVALUE and MAXVALUE).
 */
export const messagePartitionBounds = pgTable("message_partition_bounds", {
  partition: text("partition").primaryKey(),
  lo: bigint("lo", { mode: "number" }).notNull(),
  hi: bigint("hi", { mode: "number" }).notNull(),
  minCreatedAt: timestamp("min_created_at", { withTimezone: true }),
  maxCreatedAt: timestamp("max_created_at", { withTimezone: true }),
});
