import { date, index, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { statsCountColumn, statsKeyColumns } from "./message-stats-key";

/**
 * Outbound messages counted per team, UTC day, company number, template name, sent_group,
 * status and (for FAILED) provider error code and title: what GET /api/v1/messages/stats sums
 * instead of counting `messages` (a team's year of sends is a few thousand rows here, against
 * millions of messages). The key's columns, and how a missing value is stored, are
 * message-stats-key.ts's.
 *
 * Kept exact by the write path's triggers on `messages` (db/functions/message_stats_count.sql for
 * INSERT and DELETE, messages_status_changed.sql for UPDATE; the table came with migration 0017):
 * they append signed deltas to `message_stats_deltas` in the writing transaction, a chore folds
 * them in here about once a second, and every read adds the deltas not folded yet (docs/write-path.md,
 * "No hot rows"). An UPDATE that changes no key, such as a claim or a lease, writes nothing. Rows
 * whose count falls to 0 are kept (they are few and will likely be counted into again). No
 * foreign keys: it is derived data.
 */
export const messageStats = pgTable(
  "message_stats",
  {
    ...statsKeyColumns(),
    day: date("day").notNull(),
    messages: statsCountColumn(),
  },
  (t) => [
    primaryKey({
      name: "message_stats_pk",
      columns: [t.teamId, t.day, t.waNumberId, t.templateName, t.sentGroup, t.status, t.errorCode, t.errorTitle],
    }),
    // A sent_group filter without dates (one broadcast's results) reads only that group's rows.
    index("message_stats_team_group_idx").on(t.teamId, t.sentGroup),
  ],
);
