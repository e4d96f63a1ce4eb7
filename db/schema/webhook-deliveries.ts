import { foreignKey, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { teams } from "./teams";
import { messages } from "./messages";

/**
 * Outgoing events to a bot's or campaign's webhook URL (`message.received`, `message.status`), and
 * the team's event log fanned out to its webhook endpoints (`target_kind` 'endpoint', any event of
 * lib/events/catalogue.ts; db/functions/webhook_endpoints_fan_out.sql).
 * A durable queue like outbound messages: pending rows are claimed with a lease and retried with
 * backoff; every attempt's outcome stays inspectable. `message_id` is the team's own message
 * (composite foreign key); `target_id` names a bot or a campaign by `target_kind`, which no
 * foreign key can express.
 */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    targetKind: text("target_kind").$type<"bot" | "campaign" | "endpoint">().notNull(),
    targetId: integer("target_id").notNull(),
    url: text("url").notNull(),
    event: text("event").notNull(),
    messageId: integer("message_id"),
    payload: jsonb("payload").notNull(),
    status: text("status").$type<"pending" | "delivered" | "failed">().notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    // When the last attempt was answered (or gave up) and how long it took.
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true }),
    lastDurationMs: integer("last_duration_ms"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    deliveredAt: timestamp("delivered_at", { withTimezone: true }),
  },
  (t) => [
    index("webhook_deliveries_queue_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'pending'`),
    index("webhook_deliveries_target_idx").on(t.teamId, t.targetKind, t.targetId, t.id),
    foreignKey({
      name: "webhook_deliveries_message_fk",
      columns: [t.messageId, t.teamId],
      foreignColumns: [messages.id, messages.teamId],
    }).onDelete("cascade"),
    // For the delete side of that key: a deleted message's deliveries are found by it.
    index("webhook_deliveries_message_idx").on(t.messageId),
  ],
);
