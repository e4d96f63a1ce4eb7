import { bigint, integer, text } from "drizzle-orm/pg-core";

/**
 * The key every stats table counts by, beside its own time column (`day` in message_stats and its
 * deltas, `month` in the months, none in the totals): team, company number, template name,
 * sent_group, status and (for FAILED) the provider's error code and title. A missing template name
 * or sent_group is '' and a missing error code 0, because key columns cannot be null. A function,
 * not a shared object, so that each table gets column builders of its own.
 */
export const statsKeyColumns = () => ({
  teamId: integer("team_id").notNull(),
  waNumberId: integer("wa_number_id").notNull(),
  templateName: text("template_name").notNull(),
  sentGroup: text("sent_group").notNull(),
  status: text("status").notNull(),
  errorCode: bigint("error_code", { mode: "number" }).notNull(),
  errorTitle: text("error_title").notNull(),
});

/** A key's count: signed in the deltas, a running sum in the rollups. */
export const statsCountColumn = () => bigint("messages", { mode: "number" }).notNull();
