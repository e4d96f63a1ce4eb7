import { foreignKey, index, integer, pgTable, primaryKey, text } from "drizzle-orm/pg-core";
import { messages } from "./messages";

/**
 * Which message holds a provider id (wamid) on a number: the uniqueness of (wa_number_id,
 * provider_message_id) that the partitioned `messages` cannot index (a unique index there must
 * hold id, migration 0037). Kept by the trigger of db/functions/message_provider_ids.sql on every
 * insert and every change of a provider id, which raises unique_violation when another message
 * already holds it, so hand-written SQL cannot break it either. The inbound webhook claims its row
 * first and inserts the message only when the claim succeeded (lib/meta-webhooks/inbound-repo.ts);
 * lookups by wamid read here, then the message by (id, team_id), one partition.
 */
export const messageProviderIds = pgTable(
  "message_provider_ids",
  {
    waNumberId: integer("wa_number_id").notNull(),
    providerMessageId: text("provider_message_id").notNull(),
    teamId: integer("team_id").notNull(),
    messageId: integer("message_id").notNull(),
  },
  (t) => [
    primaryKey({ name: "message_provider_ids_pkey", columns: [t.waNumberId, t.providerMessageId] }),
    // Goes with its message (a deleted team's, one a retention drop takes: lib/messages/partitions.ts).
    foreignKey({
      name: "message_provider_ids_message_fk",
      columns: [t.messageId, t.teamId],
      foreignColumns: [messages.id, messages.teamId],
    }).onDelete("cascade"),
    // For the delete side of that key.
    index("message_provider_ids_message_idx").on(t.messageId),
  ],
);
