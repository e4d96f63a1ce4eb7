import { date, index, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { statsCountColumn, statsKeyColumns } from "./message-stats-key";

/**
 * `message_stats` summed per UTC month (`month` is its first day), for the stats' whole months:
 * a range of years reads twelve rows a year per key instead of 365 (GET /api/v1/messages/stats
 * without dates, or with a sent_group alone, sums a team's whole history). Measured on the bench's
 * 50 M set, four years deep: those reads took 2.5× the p99 of the one-year set when they summed
 * days (bench/log/2026-11-28-new-machine.md). lib/messages/stats-repo.ts reads whole months here and
 * only the days at the range's ragged ends from `message_stats`.
 *
 * Kept by a trigger on `message_stats` (db/functions/message_stats_months.sql), not by the fold:
 * whatever writes the daily rollup (the fold, an older process during a rolling deploy, SQL by
 * hand) moves the month with it in the same statement. Its only writer is the fold, one process
 * at a time, so its rows are never hot. Same key as `message_stats` with `month` for `day`; a key
 * whose count nets to 0 may be missing or kept at 0.
 */
export const messageStatsMonths = pgTable(
  "message_stats_months",
  {
    ...statsKeyColumns(),
    month: date("month").notNull(),
    messages: statsCountColumn(),
  },
  (t) => [
    primaryKey({
      name: "message_stats_months_pk",
      columns: [t.teamId, t.month, t.waNumberId, t.templateName, t.sentGroup, t.status, t.errorCode, t.errorTitle],
    }),
    // As on message_stats: a sent_group without dates (one broadcast's results) reads only its rows.
    index("message_stats_months_team_group_idx").on(t.teamId, t.sentGroup),
  ],
);
