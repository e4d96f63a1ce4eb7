import { bigint, date, index, integer, pgTable, text } from "drizzle-orm/pg-core";

/**
 * Append-only changes to `message_stats` (DESIGN section 13, "no hot rows"). The triggers on
 * `messages` (db/functions/message_stats_*.sql) insert a signed count per key here instead of
 * updating the rollup row of that key: every send of one template on one day shares that row, so
 * updating it in place made concurrent writers wait on each other (626 against 7,534 commits/s
 * measured). Plain inserts never wait. A chore folds the rows into `message_stats` about once a
 * second (lib/messages/stats-fold.ts), and every read adds the rows not folded yet, so the counts
 * stay exact at every moment. Same columns as the rollup; `messages` is the signed change.
 */
export const messageStatsDeltas = pgTable(
  "message_stats_deltas",
  {
    teamId: integer("team_id").notNull(),
    day: date("day").notNull(),
    waNumberId: integer("wa_number_id").notNull(),
    templateName: text("template_name").notNull(),
    sentGroup: text("sent_group").notNull(),
    status: text("status").notNull(),
    errorCode: bigint("error_code", { mode: "number" }).notNull(),
    errorTitle: text("error_title").notNull(),
    messages: bigint("messages", { mode: "number" }).notNull(),
  },
  // Reads of one team add its unfolded rows; one index is the whole price of an insert here.
  (t) => [index("message_stats_deltas_team_idx").on(t.teamId)],
);
