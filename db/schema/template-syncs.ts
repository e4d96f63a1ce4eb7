import { integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";

/**
 * The last sync of each business account's templates with Meta's list (lib/templates/sync-service.ts),
 * one row per (team, business account). `startedAt` is also the scheduled sync's claim: a worker
 * takes an account whose last start is older than TEMPLATE_SYNC_INTERVAL_MIN by moving it to now
 * (FOR UPDATE SKIP LOCKED), so many workers sync each account once per interval. `result` is the
 * account's last answer as the API gives it (counts, or Meta's error); `triggeredBy` who asked
 * (`schedule`, `cli`, or the agent's name).
 */
export const templateSyncs = pgTable(
  "template_syncs",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    businessAccountId: text("business_account_id").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    triggeredBy: text("triggered_by").notNull().default("schedule"),
    result: jsonb("result"),
  },
  (t) => [primaryKey({ name: "template_syncs_pk", columns: [t.teamId, t.businessAccountId] })],
);
