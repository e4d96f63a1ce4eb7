import { boolean, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { teams } from "./teams";

/**
 * The team's own webhook endpoints (docs/features/outgoing-webhooks.md): URLs that receive the
 * events of the live log (lib/events/catalogue.ts) they subscribe to, `{*}` for all of them. Every
 * event written to `events` is fanned out to the enabled subscribed endpoints by
 * db/functions/webhook_endpoints_fan_out.sql, as `webhook_deliveries` rows of `target_kind`
 * 'endpoint' in the writing transaction. The signing secret is encrypted like channel credentials
 * (lib/crypto/secrets.ts); after a roll the previous one also signs until `previous_secret_expires_at`.
 * `failing_since` is the first failed attempt since the last success: three days of it disable the
 * endpoint (`disabled_reason` 'failing').
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    description: text("description").notNull().default(""),
    events: text("events")
      .array()
      .notNull()
      .default(sql`'{*}'::text[]`),
    secretEncrypted: text("secret_encrypted").notNull(),
    previousSecretEncrypted: text("previous_secret_encrypted"),
    previousSecretExpiresAt: timestamp("previous_secret_expires_at", { withTimezone: true }),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason").$type<"manual" | "failing">(),
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    failingSince: timestamp("failing_since", { withTimezone: true }),
    createdByKind: text("created_by_kind").$type<"agent" | "token" | "system">().notNull(),
    createdById: integer("created_by_id"),
    createdByName: text("created_by_name").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // The fan-out's lookup: a team's enabled endpoints, for every statement that writes events.
  (t) => [
    index("webhook_endpoints_team_enabled_idx")
      .on(t.teamId)
      .where(sql`enabled`),
  ],
);
