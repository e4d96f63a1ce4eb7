import { bigint, date, doublePrecision, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";

/**
 * The reports' rollups (docs/features/reports.md), written only by the triggers of
 * db/functions/reports_*.sql and messages_after_insert.sql, so whatever writes a message or a
 * conversation (the API, the webhooks, a hand-written INSERT) is counted, with no hot row (docs/write-path.md,
 * "No hot rows"): never a shared counter that every writer of a day would update. Reads aggregate them per
 * (team, day) range through the (team_id, day) indexes, never `messages`. No foreign keys:
 * derived data, like conversation_days. `agent_id` 0 means no agent (the API, or unassigned).
 * The two sample tables are append-only; the message counts are one row per customer and day.
 * The samples' (team_id, day) indexes are covering (INCLUDE every column a report reads), created
 * by hand in migration 0028 because drizzle-kit cannot express INCLUDE: reads are index-only.
 */

/** One row per first response: an agent's or the API's outbound message answering a waiting customer. */
export const reportResponses = pgTable(
  "report_responses",
  {
    teamId: integer("team_id").notNull(),
    /** UTC day of the answering message. */
    day: date("day").notNull(),
    waNumberId: integer("wa_number_id").notNull(),
    contactId: integer("contact_id").notNull(),
    agentId: integer("agent_id").notNull(),
    /** From the customer's first unanswered message to the answer (never negative). */
    seconds: integer("seconds").notNull(),
  },
  (t) => [index("report_responses_team_day_idx").on(t.teamId, t.day)],
);

/** One row per conversation opened (new, or reopened) and per conversation resolved. */
export const reportConversationEvents = pgTable(
  "report_conversation_events",
  {
    teamId: integer("team_id").notNull(),
    day: date("day").notNull(),
    waNumberId: integer("wa_number_id").notNull(),
    contactId: integer("contact_id").notNull(),
    /** The assignee at that moment (0: unassigned). */
    agentId: integer("agent_id").notNull(),
    kind: text("kind").$type<"opened" | "resolved">().notNull(),
    /** For `resolved`: seconds since the conversation was (re)opened; null for `opened`. */
    seconds: integer("seconds"),
  },
  (t) => [index("report_conversation_events_team_day_idx").on(t.teamId, t.day)],
);

/**
 * Messages per (team, UTC day, number, contact, agent, direction), upserted in key order by the
 * messages triggers. Like conversation_days its key is one customer's day, so only writers of the
 * same customer on the same day ever share a row (not a hot row: docs/write-path.md); a broadcast's
 * rows each have their own contact. The primary key leads with (team_id, day) for the reads.
 */
export const reportMessageCounts = pgTable(
  "report_message_counts",
  {
    teamId: integer("team_id").notNull(),
    day: date("day").notNull(),
    waNumberId: integer("wa_number_id").notNull(),
    contactId: integer("contact_id").notNull(),
    agentId: integer("agent_id").notNull(),
    direction: text("direction").$type<"INBOUND" | "OUTBOUND">().notNull(),
    messages: bigint("messages", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.day, t.waNumberId, t.contactId, t.agentId, t.direction] })],
);

/**
 * The same counts without the contact, for reports not filtered by label: a few rows per team and
 * day (a year of a busy team is thousands of rows, not the hundreds of thousands of customer-days
 * above). Every writer of a team's day shares such a row, so the triggers never update it: they
 * append signed deltas to report_message_deltas, which lib/reports/fold.ts folds in about once a
 * second (as message_stats_deltas), and reads add the deltas not folded yet.
 */
export const reportMessageDays = pgTable(
  "report_message_days",
  {
    teamId: integer("team_id").notNull(),
    day: date("day").notNull(),
    waNumberId: integer("wa_number_id").notNull(),
    agentId: integer("agent_id").notNull(),
    direction: text("direction").$type<"INBOUND" | "OUTBOUND">().notNull(),
    messages: bigint("messages", { mode: "number" }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.day, t.waNumberId, t.agentId, t.direction] })],
);

/** Append-only signed changes to report_message_days (one row per statement and key). */
export const reportMessageDeltas = pgTable(
  "report_message_deltas",
  {
    teamId: integer("team_id").notNull(),
    day: date("day").notNull(),
    waNumberId: integer("wa_number_id").notNull(),
    agentId: integer("agent_id").notNull(),
    direction: text("direction").$type<"INBOUND" | "OUTBOUND">().notNull(),
    messages: bigint("messages", { mode: "number" }).notNull(),
  },
  // Reads of one team add its unfolded rows; one index is the whole price of an insert here.
  (t) => [index("report_message_deltas_team_idx").on(t.teamId)],
);

/**
 * The time figures per (team, UTC day, number, agent, metric, bucket), for reports not filtered by
 * label: how many first responses (`first_response`) or resolutions (`resolution`) took a time in
 * that bucket, and the sum of those times (lib/reports/buckets.ts: whole seconds below 64, then 32
 * buckets per doubling, a bucket read back as its mean), and the conversations opened (`opened`,
 * bucket 0). Each sample is counted at four levels, so that every report reads the fewest rows:
 * its number and agent, its number with `agent_id` -1 (every agent), `wa_number_id` 0 (every
 * number) with its agent, and 0 with -1 (the team's whole day). A median or p90 over any range adds
 * up a few rows per day instead of sorting every sample of the range. Written like
 * report_message_days: the write path appends to report_histogram_deltas (next to the sample it
 * writes), a chore folds them, reads add the ones not folded yet.
 */
export const reportHistograms = pgTable(
  "report_histograms",
  {
    teamId: integer("team_id").notNull(),
    day: date("day").notNull(),
    /** 0: every number. */
    waNumberId: integer("wa_number_id").notNull(),
    /** -1: every agent (0 is the API or nobody). */
    agentId: integer("agent_id").notNull(),
    metric: text("metric").$type<ReportMetric>().notNull(),
    bucket: integer("bucket").notNull(),
    samples: bigint("samples", { mode: "number" }).notNull(),
    /** The sum of the samples' seconds. */
    seconds: bigint("seconds", { mode: "number" }).notNull(),
  },
  // Level first, then the days: a report reads one level's days, a tight range of this key.
  (t) => [primaryKey({ columns: [t.teamId, t.waNumberId, t.agentId, t.day, t.metric, t.bucket] })],
);

export type ReportMetric = "first_response" | "resolution" | "opened";

/** Append-only additions to report_histograms (one row per statement, key and level). */
export const reportHistogramDeltas = pgTable(
  "report_histogram_deltas",
  {
    teamId: integer("team_id").notNull(),
    day: date("day").notNull(),
    waNumberId: integer("wa_number_id").notNull(),
    agentId: integer("agent_id").notNull(),
    metric: text("metric").$type<ReportMetric>().notNull(),
    bucket: integer("bucket").notNull(),
    samples: bigint("samples", { mode: "number" }).notNull(),
    seconds: bigint("seconds", { mode: "number" }).notNull(),
  },
  (t) => [index("report_histogram_deltas_team_idx").on(t.teamId)],
);

/**
 * Each day of report_histograms pre-folded, per level (team, number level, agent level, day, as
 * report_histograms): per time metric (`fr_` first responses, `res_` resolutions) the sample
 * count and the values (their buckets' means) at the two ranks of the median and of the p90 that
 * percentile_cont interpolates between, and the openings: a summary's row of a day, read as one row
 * instead of that day's buckets (lib/reports/repo.ts). Computed from the day's buckets with the
 * same arithmetic as a read of them, so equal to it; kept by the triggers of
 * db/functions/report_day_figures.sql on report_histograms (the fold's statement refreshes the days
 * it touched). A day with histogram deltas not folded yet is read from its buckets instead.
 */
export const reportDayFigures = pgTable(
  "report_day_figures",
  {
    teamId: integer("team_id").notNull(),
    /** 0: every number. */
    waNumberId: integer("wa_number_id").notNull(),
    /** -1: every agent. */
    agentId: integer("agent_id").notNull(),
    day: date("day").notNull(),
    frN: integer("fr_n").notNull(),
    frP50Lo: doublePrecision("fr_p50_lo"),
    frP50Hi: doublePrecision("fr_p50_hi"),
    frP90Lo: doublePrecision("fr_p90_lo"),
    frP90Hi: doublePrecision("fr_p90_hi"),
    resN: integer("res_n").notNull(),
    resP50Lo: doublePrecision("res_p50_lo"),
    resP50Hi: doublePrecision("res_p50_hi"),
    resP90Lo: doublePrecision("res_p90_lo"),
    resP90Hi: doublePrecision("res_p90_hi"),
    openedN: integer("opened_n").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.waNumberId, t.agentId, t.day] })],
);
