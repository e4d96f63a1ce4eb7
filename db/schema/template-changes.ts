import { foreignKey, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";
import { templates } from "./templates";
import { waNumbers } from "./wa-numbers";

/**
 * Every change Meta made to one of the team's templates (docs/features/templates-and-number-health.md),
 * one row per applied webhook item: `field` is `status`, `quality` or `category` (a category Meta
 * only announced is `category_pending`; an event that changes no field, such as FLAGGED, is a
 * `notice`; a sync that finds Meta's content edited, `components`); `previous` and `value` are what it was and
 * became; `reason` is Meta's (a rejection's, a pause's). `metaAt` is the webhook's entry time (a
 * sync's: when it began reading Meta's list); `raw` the item as received. `source` says which of
 * the two told us: Meta's `webhook` or a `sync` reading Graph's template list
 * (lib/templates/sync-service.ts). A replay that changes nothing writes no row.
 */
export const templateChanges = pgTable(
  "template_changes",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    templateId: integer("template_id").notNull(),
    field: text("field").$type<"status" | "quality" | "category" | "category_pending" | "notice" | "components">().notNull(),
    previous: text("previous"),
    value: text("value").notNull(),
    reason: text("reason"),
    metaAt: timestamp("meta_at", { withTimezone: true }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    raw: jsonb("raw"),
    source: text("source").$type<"webhook" | "sync" | "editor">().notNull().default("webhook"),
  },
  (t) => [
    index("template_changes_template_idx").on(t.teamId, t.templateId, t.id),
    foreignKey({
      name: "template_changes_template_fk",
      columns: [t.teamId, t.templateId],
      foreignColumns: [templates.teamId, templates.id],
    }).onDelete("cascade"),
  ],
);

/**
 * Every change Meta reported of a number's health: its quality rating and messaging limit tier
 * (phone_number_quality_update) or its business account (account_update). `event` is Meta's
 * (FLAGGED, DOWNGRADE, UPGRADE, ACCOUNT_VIOLATION…); the rating and tier columns hold what the
 * number had before and after the item. A replay that changes nothing writes no row.
 */
export const numberHealthChanges = pgTable(
  "number_health_changes",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    waNumberId: integer("wa_number_id").notNull(),
    field: text("field").$type<"phone_number_quality_update" | "account_update">().notNull(),
    event: text("event").notNull(),
    previousQualityRating: text("previous_quality_rating"),
    qualityRating: text("quality_rating"),
    previousMessagingLimitTier: text("previous_messaging_limit_tier"),
    messagingLimitTier: text("messaging_limit_tier"),
    metaAt: timestamp("meta_at", { withTimezone: true }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    raw: jsonb("raw"),
  },
  (t) => [
    index("number_health_changes_number_idx").on(t.teamId, t.waNumberId, t.id),
    foreignKey({
      name: "number_health_changes_wa_number_fk",
      columns: [t.teamId, t.waNumberId],
      foreignColumns: [waNumbers.teamId, waNumbers.id],
    }).onDelete("cascade"),
  ],
);
