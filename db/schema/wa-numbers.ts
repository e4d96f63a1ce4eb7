import { integer, pgTable, serial, text, timestamp, unique, uniqueIndex } from "drizzle-orm/pg-core";
import { teams } from "./teams";

/**
 * Company numbers. `number` is digits only (no '+'), unique across the service because a
 * WhatsApp number belongs to exactly one business; inbound webhooks are routed by it.
 * `credentials` holds the provider secrets (access token, app secret, verify token) as
 * AES-256-GCM ciphertext (lib/crypto/secrets.ts); it is never returned by the API.
 */
export const waNumbers = pgTable(
  "wa_numbers",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    number: text("number").notNull(),
    displayName: text("display_name").notNull().default(""),
    provider: text("provider", { enum: ["sandbox", "cloud_api"] })
      .notNull()
      .default("sandbox"),
    phoneNumberId: text("phone_number_id"),
    businessAccountId: text("business_account_id"),
    credentials: text("credentials"),
    messagesPerSecond: integer("messages_per_second").notNull().default(80),
    // Per-number send slot shared by every worker process: each send reserves the next slot with
    // one atomic UPDATE, so pacing holds across workers (lib/delivery/pacing.ts).
    nextSendAt: timestamp("next_send_at", { withTimezone: true }),
    // The number's health as Meta last reported it (phone_number_quality_update, account_update:
    // docs/features/templates-and-number-health.md): quality rating (GREEN, YELLOW, RED, UNKNOWN),
    // messaging limit tier (TIER_250, TIER_1K…), the last event's name and when it came. Null
    // until Meta says something (sandbox numbers never).
    qualityRating: text("quality_rating"),
    messagingLimitTier: text("messaging_limit_tier"),
    healthEvent: text("health_event"),
    healthUpdatedAt: timestamp("health_updated_at", { withTimezone: true }),
    // What Meta answered the last check of the number (POST /api/v1/numbers/{id}/verify:
    // docs/features/numbers.md): the business name Meta shows customers, and when it was asked.
    verifiedName: text("verified_name"),
    verifiedAt: timestamp("verified_at", { withTimezone: true }),
    // Set while the team has switched the number off: sends from it are refused (422); inbound
    // messages and Meta's statuses for it are still taken in. Null: in use.
    disabledAt: timestamp("disabled_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("wa_numbers_number_uq").on(t.number),
    uniqueIndex("wa_numbers_phone_number_id_uq").on(t.phoneNumberId),
    unique("wa_numbers_team_id_id_uq").on(t.teamId, t.id),
  ],
);
