import { bigserial, index, pgTable, text, timestamp } from "drizzle-orm/pg-core";

/**
 * The event streams open in every process, one row per stream, so the cap on streams per holder
 * (an agent, or an API token) holds across processes (lib/events/stream-registry.ts). A row is a
 * lease: its process renews `expires_at` while the stream is open and deletes the row when it
 * closes; a process that dies leaves rows that stop counting when their lease runs out.
 */
export const openStreams = pgTable(
  "open_streams",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    holder: text("holder").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
  },
  (t) => [index("open_streams_holder_idx").on(t.holder, t.expiresAt), index("open_streams_expires_idx").on(t.expiresAt)],
);
