import { date, integer, pgTable, primaryKey } from "drizzle-orm/pg-core";

/**
 * Messages per conversation (team, company number, contact) and UTC day: a rollup that the
 * history's `total_items` sums for the whole days inside a window, counting only the two partial
 * edge days in `messages` (lib/messages/history-repo.ts). A 30-day window of a customer with
 * 16,000 messages in it is then ~30 rows plus two days of index entries instead of 16,000.
 *
 * Kept exact by statement-level triggers on `messages` (migration 0007): every INSERT adds its
 * rows' counts and every DELETE (cascades included) takes them away, in the same transaction.
 * `team_id`, `wa_number_id`, `contact_id` and `created_at` of a message never change (migration
 * 0008 makes an UPDATE of them fail), so no UPDATE trigger is needed, and statuses change freely.
 * No foreign keys: it is derived data, and rows whose count falls to 0 are deleted.
 *
 * The primary key's index also carries `messages` (INCLUDE, migration 0041, hand-written because
 * drizzle-kit cannot express it), so a window's sum is read index-only: one conversation's days
 * are neighbours in the key but scattered over the heap (docs/history.md, "The count's rollup").
 */
export const conversationDays = pgTable(
  "conversation_days",
  {
    teamId: integer("team_id").notNull(),
    waNumberId: integer("wa_number_id").notNull(),
    contactId: integer("contact_id").notNull(),
    day: date("day").notNull(),
    messages: integer("messages").notNull(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.waNumberId, t.contactId, t.day] })],
);
