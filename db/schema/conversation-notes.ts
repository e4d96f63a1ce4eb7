import { foreignKey, index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";
import { waNumbers } from "./wa-numbers";
import { contacts } from "./contacts";
import { agents } from "./agents";

/**
 * Private notes agents leave in a conversation. They are not messages: never sent to WhatsApp,
 * never in the 4.5 history, kept in a table of their own keyed like a conversation (team, number,
 * contact) so they outlive the derived `conversations` row. `agent_id` is null for a note written
 * through the API with a token (no agent), and when its agent is removed.
 */
export const conversationNotes = pgTable(
  "conversation_notes",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    waNumberId: integer("wa_number_id").notNull(),
    contactId: integer("contact_id").notNull(),
    agentId: integer("agent_id"),
    body: text("body").notNull(),
    // The conversation's newest message id when the note was written: the thread places the note
    // right after it. Times alone cannot (a message's time is in whole seconds).
    afterMessageId: integer("after_message_id"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    foreignKey({
      name: "conversation_notes_wa_number_fk",
      columns: [t.teamId, t.waNumberId],
      foreignColumns: [waNumbers.teamId, waNumbers.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "conversation_notes_contact_fk",
      columns: [t.teamId, t.contactId],
      foreignColumns: [contacts.teamId, contacts.id],
    }).onDelete("cascade"),
    // The migration makes this ON DELETE SET NULL (agent_id): a removed agent's notes stay, unsigned.
    foreignKey({ name: "conversation_notes_agent_fk", columns: [t.teamId, t.agentId], foreignColumns: [agents.teamId, agents.id] }),
    index("conversation_notes_key_idx").on(t.teamId, t.waNumberId, t.contactId, t.id),
  ],
);
