import { foreignKey, index, integer, jsonb, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { messages } from "./messages";

/**
 * Every status a message was given, as received, applied or not, for audit (docs/architecture.md, "Message lifecycle";
 * `GET /api/v1/updates/{update_id}` shows it). Named for what it holds: it is neither the live
 * event log (`events`) nor an outgoing webhook (`webhook_deliveries`). Migration 0031 renamed it
 * from `message_status_history`.
 */
export const messageStatusHistory = pgTable(
  "message_status_history",
  {
    id: serial("id").primaryKey(),
    // No foreign key of its own to teams (migration 0030): the message's key includes team_id and
    // cascades, and checking the team's too took a key-share lock on its one row in every status
    // transaction (a hot row: docs/write-path.md).
    teamId: integer("team_id").notNull(),
    messageId: integer("message_id").notNull(),
    status: text("status").notNull(),
    applied: integer("applied").notNull().default(1),
    raw: jsonb("raw"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("message_status_history_message_idx").on(t.messageId),
    foreignKey({
      name: "message_status_history_message_fk",
      columns: [t.messageId, t.teamId],
      foreignColumns: [messages.id, messages.teamId],
    }).onDelete("cascade"),
  ],
);
