import { index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { teams } from "./teams";
import { waNumbers } from "./wa-numbers";
import { contacts } from "./contacts";

export const MESSAGE_STATUSES = ["RECEIVED", "QUEUED", "SENDED", "SENT", "DELIVERED", "READED", "FAILED"] as const;
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];
export type MessageSender = "CUSTOMER" | "AGENT" | "BOT" | "SYSTEM";
export type MessageDirection = "INBOUND" | "OUTBOUND";
export type RoutedTo = { kind: "campaign" | "bot"; id: number | null; reason: string };
export type ProviderError = { code: number | null; title: string; details?: string | null };

/**
 * Every message, both directions (spec 2.4 plus what delivery and routing need).
 * The outbound row is also the delivery job: status QUEUED + next_attempt_at, claimed by the
 * worker with a lease (locked_until). The history index
 * (team_id, wa_number_id, contact_id, id) INCLUDE (created_at) is created by a hand-written
 * migration, because drizzle-kit cannot express INCLUDE.
 */
export const messages = pgTable(
  "messages",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id").notNull().references(() => teams.id, { onDelete: "cascade" }),
    waNumberId: integer("wa_number_id").notNull().references(() => waNumbers.id, { onDelete: "cascade" }),
    contactId: integer("contact_id").notNull().references(() => contacts.id, { onDelete: "cascade" }),
    updateId: uuid("update_id").notNull().defaultRandom(),
    customerNumber: text("customer_number"),
    customerId: text("customer_id"),
    sender: text("sender").$type<MessageSender>(),
    direction: text("direction").$type<MessageDirection>().notNull(),
    type: text("type").notNull(),
    status: text("status").$type<MessageStatus>().notNull(),
    payload: jsonb("payload").$type<Record<string, unknown> | unknown[] | null>(),
    agentId: integer("agent_id").notNull().default(0),
    agentName: text("agent_name"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    // Outbound template sends
    templateId: integer("template_id"),
    templateName: text("template_name"),
    templateLanguage: text("template_language"),
    sendParams: jsonb("send_params").$type<Record<string, unknown>>(),
    mediaPath: text("media_path"),
    sentGroup: text("sent_group"),
    responseHandler: text("response_handler").$type<"CAMPAIGN" | "CHATBOT">(),
    campaignId: integer("campaign_id"),
    botId: integer("bot_id"),
    // Provider side
    providerMessageId: text("provider_message_id"),
    replyToMessageId: integer("reply_to_message_id"),
    routedTo: jsonb("routed_to").$type<RoutedTo>(),
    error: jsonb("error").$type<ProviderError>(),
    // Delivery job
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    statusUpdatedAt: timestamp("status_updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("messages_update_id_uq").on(t.updateId),
    uniqueIndex("messages_provider_id_uq").on(t.waNumberId, t.providerMessageId),
    index("messages_queue_idx").on(t.nextAttemptAt).where(sql`status = 'QUEUED'`),
    index("messages_team_group_idx").on(t.teamId, t.sentGroup),
  ],
);

/** Every status change of a message, as received, for audit (DESIGN section 6). */
export const messageEvents = pgTable(
  "message_events",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id").notNull().references(() => teams.id, { onDelete: "cascade" }),
    messageId: integer("message_id").notNull().references(() => messages.id, { onDelete: "cascade" }),
    status: text("status").notNull(),
    applied: integer("applied").notNull().default(1),
    raw: jsonb("raw"),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index("message_events_message_idx").on(t.messageId)],
);
