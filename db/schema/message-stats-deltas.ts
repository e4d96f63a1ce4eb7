import { bigint, date, index, pgTable, text } from "drizzle-orm/pg-core";
import { statsCountColumn, statsKeyColumns } from "./message-stats-key";

/**
 * Append-only changes to `message_stats` (docs/write-path.md, "No hot rows"). The triggers on
 * `messages` (db/functions/message_stats_*.sql) insert a signed count per key here instead of
 * updating the rollup row of that key: every send of one template on one day shares that row, so
 * updating it in place made concurrent writers wait on each other (626 against 7,534 commits/s
 * measured). Plain inserts never wait. A chore folds the rows into `message_stats` about once a
 * second (lib/messages/stats-service.ts), and every read adds the rows not folded yet, so the counts
 * stay exact at every moment. Same columns as the rollup; `messages` is the signed change.
 *
 * A row with `from_status` set is a move, two changes in one row: `messages` counted into its key
 * and taken out of the same key with `from_status`, `from_error_code` and `from_error_title` in
 * place of the status and error. A status change is the hottest write of the service (every
 * status webhook), and every message's status moves within one key otherwise (team, day, number,
 * template, group never change together with it in practice), so one row instead of a -1 row and
 * a +1 row halves what it writes here (messages_status_changed.sql). Readers expand a row into its
 * one or two changes with `message_stats_delta_changes` (lib/messages/stats-repo.ts).
 */
export const messageStatsDeltas = pgTable(
  "message_stats_deltas",
  {
    ...statsKeyColumns(),
    day: date("day").notNull(),
    messages: statsCountColumn(),
    fromStatus: text("from_status"),
    fromErrorCode: bigint("from_error_code", { mode: "number" }),
    fromErrorTitle: text("from_error_title"),
  },
  // Reads of one team add its unfolded rows; one index is the whole price of an insert here.
  (t) => [index("message_stats_deltas_team_idx").on(t.teamId)],
);
