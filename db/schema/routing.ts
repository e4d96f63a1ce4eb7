import { boolean, index, integer, pgTable, serial, text, timestamp, unique } from "drizzle-orm/pg-core";
import { teams } from "./teams";

/**
 * Reply targets. Each may have a webhook URL that receives `message.received` and
 * `message.status` events signed with `webhookSecret` (HMAC-SHA256). One bot per team can be the
 * default: it takes replies to CAMPAIGN sends made without a campaign_id (docs/architecture.md, ruling 8).
 */
export const bots = pgTable(
  "bots",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    isDefault: boolean("is_default").notNull().default(false),
    webhookUrl: text("webhook_url"),
    webhookSecret: text("webhook_secret"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("bots_team_idx").on(t.teamId), unique("bots_team_id_id_uq").on(t.teamId, t.id)],
);

export const campaigns = pgTable(
  "campaigns",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    webhookUrl: text("webhook_url"),
    webhookSecret: text("webhook_secret"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("campaigns_team_idx").on(t.teamId), unique("campaigns_team_id_id_uq").on(t.teamId, t.id)],
);
