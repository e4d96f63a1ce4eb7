import { index, pgTable, primaryKey } from "drizzle-orm/pg-core";
import { statsCountColumn, statsKeyColumns } from "./message-stats-key";

/**
 * `message_stats_months` summed over all time, for the stats without dates: GET
 * /api/v1/messages/stats with no `from` and no `to` (five of the six filters a dashboard asks for
 * in the bench) reads one row per key here instead of one per key and month. A key that lives for
 * years (sends without a sent_group, one template's whole history) adds twelve month rows a year
 * and one row here, ever. On the bench's 50 M set, whose sent_groups are week-long campaigns (most
 * keys live in one month), it reads 2,090 rows instead of 2,570: 0.92 ms against 1.13 ms
 * (bench/log/2026-11-28-50m-fifth-run.md).
 *
 * Kept by a trigger on `message_stats_months` (db/functions/message_stats_totals.sql), which itself
 * follows `message_stats` in the same statement: whatever writes the days moves the months and the
 * totals with them. Their only regular writer is the fold, one process at a time, so these rows are
 * never hot. Same key as the months without `month`; a key whose count nets to 0 may be missing or
 * kept at 0.
 */
export const messageStatsTotals = pgTable(
  "message_stats_totals",
  {
    ...statsKeyColumns(),
    messages: statsCountColumn(),
  },
  (t) => [
    primaryKey({
      name: "message_stats_totals_pk",
      columns: [t.teamId, t.waNumberId, t.templateName, t.sentGroup, t.status, t.errorCode, t.errorTitle],
    }),
    // As on message_stats: a sent_group without dates (one broadcast's results) reads only its rows.
    index("message_stats_totals_team_group_idx").on(t.teamId, t.sentGroup),
  ],
);
