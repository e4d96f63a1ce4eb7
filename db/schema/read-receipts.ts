import { foreignKey, index, integer, jsonb, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { teams } from "./teams";
import { waNumbers } from "./wa-numbers";
import { messages, type ProviderError } from "./messages";

export const READ_RECEIPT_STATUSES = ["PENDING", "DONE", "FAILED"] as const;
export type ReadReceiptStatus = (typeof READ_RECEIPT_STATUSES)[number];

/**
 * "Mark as read" at the provider (the customer's blue ticks) for a cloud_api number: one job per
 * acknowledged inbound message, written in the transaction of POST /conversations/{id}/read and
 * sent by the delivery worker (claimed with a lease, retried with backoff like sends), so the
 * request never waits on Graph and a receipt survives a crash. Reading an inbound message marks
 * every earlier one too, so only a conversation's newest inbound message gets a job, once.
 */
export const readReceipts = pgTable(
  "read_receipts",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    waNumberId: integer("wa_number_id").notNull(),
    messageId: integer("message_id").notNull(),
    /** The wamid acknowledged. */
    providerMessageId: text("provider_message_id").notNull(),
    status: text("status").$type<ReadReceiptStatus>().notNull().default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    error: jsonb("error").$type<ProviderError>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    doneAt: timestamp("done_at", { withTimezone: true }),
  },
  (t) => [
    foreignKey({
      name: "read_receipts_wa_number_fk",
      columns: [t.teamId, t.waNumberId],
      foreignColumns: [waNumbers.teamId, waNumbers.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "read_receipts_message_fk",
      columns: [t.messageId, t.teamId],
      foreignColumns: [messages.id, messages.teamId],
    }).onDelete("cascade"),
    uniqueIndex("read_receipts_message_uq").on(t.teamId, t.messageId),
    index("read_receipts_queue_idx")
      .on(t.nextAttemptAt)
      .where(sql`status = 'PENDING'`),
  ],
);
