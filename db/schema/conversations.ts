import { foreignKey, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import type { MessageDirection } from "./messages";
import { teams } from "./teams";
import { waNumbers } from "./wa-numbers";
import { contacts } from "./contacts";
import { agents } from "./agents";

export const CONVERSATION_STATUSES = ["open", "resolved"] as const;
export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];

/** WhatsApp's customer-service window: free-form replies within this many hours of the customer's last message. */
export const REPLY_WINDOW_HOURS = 24;

/**
 * One row per conversation (team, company number, contact): what the inbox lists, so listing
 * never scans `messages` (docs/architecture.md, "Domain model"). Kept by a statement-level trigger on messages
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
    waNumberId: integer("wa_number_id").notNull(),
    contactId: integer("contact_id").notNull(),
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
    assigneeAgentId: integer("assignee_agent_id"),
    status: text("status").$type<ConversationStatus>().notNull().default("open"),
    /**
     * The customer's first message not answered yet (null: nothing waits). Set by an inbound
     * message when nothing waits, cleared by the first outbound message of an agent or the API
     * (not a bot, not a broadcast), which then appends its first response time to
     * report_responses (db/functions/messages_after_insert.sql).
     */
    waitingSince: timestamp("waiting_since", { withTimezone: true }),
    /** When the conversation was created or last reopened: the start of its resolution time. */
    openedAt: timestamp("opened_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Seconds the first answer of this opening took (from the customer's message it answered);
     * null until answered, cleared by a reopening (db/functions/messages_after_insert.sql,
     * db/functions/conversation_clocks.sql).
     */
    firstResponseSeconds: integer("first_response_seconds"),
    /** When the conversation was resolved; null while open (db/functions/conversation_clocks.sql). */
    resolvedAt: timestamp("resolved_at", { withTimezone: true }),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // References include team_id (as everywhere between tenant-owned rows), so a query that
    // forgets its team filter fails instead of linking two teams. The last message has none:
    // like conversation_days, this row is derived from messages and goes with them.
    foreignKey({
      name: "conversations_wa_number_fk",
      columns: [t.teamId, t.waNumberId],
      foreignColumns: [waNumbers.teamId, waNumbers.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "conversations_contact_fk",
      columns: [t.teamId, t.contactId],
      foreignColumns: [contacts.teamId, contacts.id],
    }).onDelete("cascade"),
    // The migration makes this ON DELETE SET NULL (assignee_agent_id): an agent's removal unassigns.
    foreignKey({ name: "conversations_assignee_fk", columns: [t.teamId, t.assigneeAgentId], foreignColumns: [agents.teamId, agents.id] }),
    uniqueIndex("conversations_key_uq").on(t.teamId, t.waNumberId, t.contactId),
    index("conversations_team_activity_idx").on(t.teamId, t.lastMessageAt.desc(), t.id.desc()),
    index("conversations_number_activity_idx").on(t.teamId, t.waNumberId, t.lastMessageAt.desc(), t.id.desc()),
    // A contact's last activity over all its numbers (the contacts list) without reading the team's other conversations.
    index("conversations_contact_activity_idx").on(t.teamId, t.contactId, t.lastMessageAt.desc()),
    index("conversations_unread_idx")
      .on(t.teamId, t.lastMessageAt.desc())
      .where(sql`unread_count > 0`),
    // "Needs reply" (the last message is the customer's): without it, a team whose recent
    // conversations are mostly answered (after a broadcast, say) is scanned until 20 match.
    index("conversations_needs_reply_idx")
      .on(t.teamId, t.lastMessageAt.desc(), t.id.desc())
      .where(sql`last_direction = 'INBOUND'`),
    // The inbox's "Abiertas" (one number) leaves out what the customer never wrote in (after a
    // broadcast, most rows), and its own filter lists only those: each reads its half of the
    // number's activity instead of walking past the other (migration 0025).
    index("conversations_answered_activity_idx")
      .on(t.teamId, t.waNumberId, t.lastMessageAt.desc(), t.id.desc())
      .where(sql`last_inbound_at IS NOT NULL`),
    index("conversations_outbound_only_activity_idx")
      .on(t.teamId, t.waNumberId, t.lastMessageAt.desc(), t.id.desc())
      .where(sql`last_inbound_at IS NULL`),
  ],
);
