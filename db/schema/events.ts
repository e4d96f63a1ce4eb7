import { bigserial, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";

/** Postgres's 64-bit transaction id (never wraps), carried as text: JavaScript numbers cannot hold it. */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * The team-scoped, append-only event log behind `GET /api/v1/events` (docs/architecture.md, "Live events").
 * A row is written in the transaction that causes it (by the triggers of db/functions or by
 * lib/events/repo.ts insertEvents), and carries that transaction's id (`xact_id`). Nothing is
 * announced at commit: a NOTIFY in a writing transaction would take an instance-wide lock at
 * commit and serialize every writer. Instead each process tails the log (lib/events/bus.ts):
 * it reads only events of transactions older than the oldest one still running
 * (`pg_snapshot_xmin`), in (xact_id, id) order from its cursor, so an event whose id is lower
 * than one already read but whose transaction committed later is never skipped. Its id is the
 * SSE `id:`, and a client that reconnects with `Last-Event-ID` is replayed from here in the same
 * order.
 *
 * The table is partitioned by day of `created_at` (UTC; migration 0032, lib/events/prune.ts):
 * the retention drops whole days instead of deleting row by row, so a log that takes a row per
 * status never leaves a day's worth of dead rows to vacuum. Hence the key (id, created_at): a
 * partitioned table's keys must hold its partition key. `id` alone is still unique (one sequence).
 *
 * `xact_id` is 0 for rows written before migration 0023 (all long committed).
 */
export const events = pgTable(
  "events",
  {
    id: bigserial("id", { mode: "number" }).notNull(),
    // No foreign key: checking one in every status transaction takes a key-share lock on the
    // team's one row, which every concurrent writer of the team then shares (a hot row: docs/write-path.md,
    // "No hot rows"). A deleted team's events go with it by db/functions/teams_delete_events.sql.
    teamId: integer("team_id").notNull(),
    type: text("type").notNull(),
    // What the stream filters on (`wa_number`, `contact_id`); null for events of no number/contact.
    waNumberId: integer("wa_number_id"),
    contactId: integer("contact_id"),
    data: jsonb("data").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    xactId: xid8("xact_id")
      .notNull()
      .default(sql`pg_current_xact_id()`),
  },
  (t) => [
    primaryKey({ columns: [t.id, t.createdAt] }),
    // A process's tail over every team, and one team's replay, both in (xact_id, id) order.
    index("events_tail_idx").on(t.xactId, t.id),
    index("events_team_tail_idx").on(t.teamId, t.xactId, t.id),
    // No index on created_at over the whole log (migration 0035): day partitions are dropped
    // whole, so only the default partition's rows are deleted by age (lib/events/prune.ts), and
    // that partition alone carries one (events_default_created_at_idx). Every status writes an
    // event row; one index fewer on each is a fifth of that row's index work.
  ],
);
