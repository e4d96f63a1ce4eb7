import { bigint, bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";
import { waNumbers } from "./wa-numbers";

export type ParkedReason = "leased" | "unknown" | "retry";

/**
 * Status webhooks answered 200 that could not be applied yet (docs/write-path.md, "Durable before
 * acknowledged"). Parked in the same transaction that decides the 200, with why:
 * - `leased`: the status names our update_id (callback data) but a worker still holds its
 *   message's claim: the send reached the provider and its answer is not committed yet;
 * - `unknown`: no message of the number has that provider id yet (the worker's commit may still
 *   come, or it is another tool's send);
 * - `retry`: applying it failed on a deadlock or serialization error, repeatedly.
 * Whichever process runs the delivery worker applies due rows (lib/delivery/parked-statuses.ts);
 * a claim never sends again a message that a parked status names (its send reached the provider).
 * A row whose message never appears is moved to webhook_dead_letters after 7 days.
 */
export const parkedStatuses = pgTable(
  "parked_statuses",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    waNumberId: integer("wa_number_id")
      .notNull()
      .references(() => waNumbers.id, { onDelete: "cascade" }),
    providerMessageId: text("provider_message_id").notNull(),
    // Our update_id as the provider echoed it (biz_opaque_callback_data), lower-cased; null if none.
    callbackData: text("callback_data"),
    status: text("status").notNull(),
    // The StatusUpdate as received (lib/channels/types.ts), raw provider item included.
    update: jsonb("update").notNull(),
    reason: text("reason").$type<ParkedReason>().notNull(),
    attempts: integer("attempts").notNull().default(0),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp("locked_until", { withTimezone: true }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    providerTimestamp: bigint("provider_timestamp", { mode: "number" }),
  },
  (t) => [
    index("parked_statuses_due_idx").on(t.nextAttemptAt),
    index("parked_statuses_callback_idx").on(t.waNumberId, t.callbackData),
    index("parked_statuses_provider_id_idx").on(t.waNumberId, t.providerMessageId),
  ],
);
