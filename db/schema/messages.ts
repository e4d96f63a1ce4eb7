import { foreignKey, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uuid } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { teams } from "./teams";
import { waNumbers } from "./wa-numbers";
import { contacts } from "./contacts";
import { templates } from "./templates";
import { bots, campaigns } from "./routing";
import { broadcasts } from "./broadcasts";

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
 *
 * Every reference to another tenant-owned row includes team_id (migration 0013), so a message
 * can only point at its own team's number, contact, template, bot, campaign and replied message,
 * whatever the query that wrote it checked. The primary key is (id, team_id) rather than (id)
 * so that those composite references to messages need no second unique index on this table
 * (it serves lookups by id as before: id leads); ids still come from one sequence.
 *
 * The table is partitioned by RANGE (id), a partition per month of ids (migration 0037,
 * db/functions/messages_partitions.sql, lib/messages/partitions.ts): the key and every reference
 * to it already hold id, and a lookup by id reads one partition. A wamid's uniqueness per number
 * cannot be an index here (it would have to include id): message_provider_ids holds it.
 */
export const messages = pgTable(
  "messages",
  {
    id: serial("id").notNull(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    waNumberId: integer("wa_number_id").notNull(),
    contactId: integer("contact_id").notNull(),
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
    // The broadcast that enqueued it, if any.
    broadcastId: integer("broadcast_id"),
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
    // When this template counted against its number's messaging limit: stamped by the delivery
    // gate as it lets a broadcast message open a conversation (lib/broadcasts/messaging-limit.ts),
    // or by the SENDED commit of any other template. Null: not (yet) counted.
    limitCountedAt: timestamp("limit_counted_at", { withTimezone: true }),
  },
  (t) => [
    // Not unique: a partitioned table's unique index must hold the partition key (id). update_id is
    // a random UUID (gen_random_uuid() or randomUUID(), 122 random bits), so two messages never
    // share one in practice, and every lookup by it also names the team and takes one row.
    index("messages_update_id_idx").on(t.updateId),
    index("messages_queue_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'QUEUED'`),
    index("messages_team_group_idx").on(t.teamId, t.sentGroup),
    primaryKey({ name: "messages_pkey", columns: [t.id, t.teamId] }),
    foreignKey({
      name: "messages_wa_number_fk",
      columns: [t.teamId, t.waNumberId],
      foreignColumns: [waNumbers.teamId, waNumbers.id],
    }).onDelete("cascade"),
    foreignKey({ name: "messages_contact_fk", columns: [t.teamId, t.contactId], foreignColumns: [contacts.teamId, contacts.id] }).onDelete(
      "cascade",
    ),
    // Nullable references (MATCH SIMPLE: a null id references nothing). Templates, bots and
    // campaigns are never deleted on their own (only with their team, which takes its messages).
    foreignKey({ name: "messages_template_fk", columns: [t.teamId, t.templateId], foreignColumns: [templates.teamId, templates.id] }),
    foreignKey({ name: "messages_campaign_fk", columns: [t.teamId, t.campaignId], foreignColumns: [campaigns.teamId, campaigns.id] }),
    foreignKey({ name: "messages_bot_fk", columns: [t.teamId, t.botId], foreignColumns: [bots.teamId, bots.id] }),
    foreignKey({
      name: "messages_reply_to_fk",
      columns: [t.replyToMessageId, t.teamId],
      foreignColumns: [t.id, t.teamId],
    }),
    foreignKey({ name: "messages_broadcast_fk", columns: [t.teamId, t.broadcastId], foreignColumns: [broadcasts.teamId, broadcasts.id] }),
    // A broadcast's recipients in order, and its counts per status (pause, cancel and the progress
    // sweep touch only its QUEUED rows through the second). Partial: most messages are no broadcast's.
    index("messages_broadcast_idx")
      .on(t.teamId, t.broadcastId, t.id)
      .where(sql`broadcast_id IS NOT NULL`),
    index("messages_broadcast_status_idx")
      .on(t.teamId, t.broadcastId, t.status)
      .where(sql`broadcast_id IS NOT NULL`),
    // The customers a number counted in the messaging limit's rolling window (contact_id last, so
    // the count reads the index for the window's range only). Partial: inbound and free-form never count.
    index("messages_limit_idx")
      .on(t.teamId, t.waNumberId, t.limitCountedAt, t.contactId)
      .where(sql`limit_counted_at IS NOT NULL`),
    // For the delete side of messages_reply_to_fk (a deleted message's replies are looked up by
    // it); partial: only inbound replies carry one.
    index("messages_reply_to_idx")
      .on(t.teamId, t.replyToMessageId)
      .where(sql`reply_to_message_id IS NOT NULL`),
  ],
);
