import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import type { MessageDirection } from "./messages";
import { teams } from "./teams";
import { waNumbers } from "./wa-numbers";
import { contacts } from "./contacts";
import { agents } from "./agents";

export const CONVERSATION_STATUSES = ["open", "resolved"] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/**
 * One row per conversation (team, company number, contact): what the inbox lists, so listing
 * never scans `messages` (DESIGN section 14). Kept by a statement-level trigger on messages
 * (migration 0010) in the same transaction as every message insert, whichever code path writes
 * it (sends, bulk sends, inbound webhooks, the sandbox): last message, last customer message
 * (the 24-hour window), unread count, and a new customer message reopens a resolved one.
 * Assignment, status and read state are set through the conversations API.
 */
export const conversations = pgTable(
  "conversations",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    waNumberId: integer("wa_number_id")
      .notNull()
      .references(() => waNumbers.id, { onDelete: "cascade" }),
    contactId: integer("contact_id")
      .notNull()
      .references(() => contacts.id, { onDelete: "cascade" }),
    lastMessageId: integer("last_message_id").notNull(),
    /** The shown last message's own time (inbound times are the provider's, in whole seconds). */
    lastMessageCreatedAt: timestamp("last_message_created_at", { withTimezone: true }).notNull(),
    /** When the conversation last had a message stored: the list's order. */
    lastMessageAt: timestamp("last_message_at", { withTimezone: true }).notNull(),
    lastDirection: text("last_direction").$type<MessageDirection>().notNull(),
    lastInboundAt: timestamp("last_inbound_at", { withTimezone: true }),
    /** The newest inbound message, which "mark as read" acknowledges at Meta. */
    lastInboundMessageId: integer("last_inbound_message_id"),
    unreadCount: integer("unread_count").notNull().default(0),
    assigneeAgentId: integer("assignee_agent_id").references(() => agents.id, { onDelete: "set null" }),
    status: text("status").$type<ConversationStatus>().notNull().default("open"),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("conversations_key_uq").on(t.teamId, t.waNumberId, t.contactId),
    index("conversations_team_activity_idx").on(t.teamId, t.lastMessageAt.desc(), t.id.desc()),
    index("conversations_number_activity_idx").on(t.teamId, t.waNumberId, t.lastMessageAt.desc(), t.id.desc()),
    index("conversations_unread_idx").on(t.teamId, t.lastMessageAt.desc()).where(sql`unread_count > 0`),
  ],
);
