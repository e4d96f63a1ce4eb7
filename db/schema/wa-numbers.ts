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
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("wa_numbers_number_uq").on(t.number),
    uniqueIndex("wa_numbers_phone_number_id_uq").on(t.phoneNumberId),
    unique("wa_numbers_team_id_id_uq").on(t.teamId, t.id),
  ],
);
