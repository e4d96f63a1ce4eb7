import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";

/**
 * The team-scoped, append-only event log behind `GET /api/v1/events` (DESIGN section 14). A row
 * is written in the transaction that causes it; an AFTER INSERT trigger (migration) calls
 * `pg_notify('wa_events', …)`, which Postgres delivers only after that transaction commits, so
 * every process's one LISTEN connection learns of exactly the committed events. Its id is the
 * SSE `id:`, and a client that reconnects with `Last-Event-ID` is replayed from here. Rows older
 * than the retention are deleted in batches (lib/events/bus.ts).
 */
export const events = pgTable(
  "events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    // What the stream filters on (`wa_number`, `contact_id`); null for events of no number/contact.
    waNumberId: integer("wa_number_id"),
    contactId: integer("contact_id"),
    data: jsonb("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("events_team_id_idx").on(t.teamId, t.id), index("events_created_at_idx").on(t.createdAt)],
);
