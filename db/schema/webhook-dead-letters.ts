import { index, integer, pgTable, serial, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";
import { waNumbers } from "./wa-numbers";

/**
 * Inbound webhook items (an entry, change, message or status of a signed Cloud API batch) that
 * could not be stored as they came, kept for an operator (`npm run admin -- dead-letters:list`).
 * One bad item never costs the rest of its batch (docs/inbound-robustness.md): it lands here with its reason and
 * the batch answers 200. `kind` is `rejected` (not stored) or `clamped` (stored with a corrected
 * value, the original kept here). `raw` is the item's JSON as received, as text: NUL and lone
 * surrogates stay `\u` escapes (jsonb could not hold them). Team and number are null when the
 * item could not be tied to one of our numbers.
 */
export const webhookDeadLetters = pgTable(
  "webhook_dead_letters",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id").references(() => teams.id, { onDelete: "cascade" }),
    waNumberId: integer("wa_number_id").references(() => waNumbers.id, { onDelete: "set null" }),
    receivedAt: timestamp("received_at", { withTimezone: true }).notNull().defaultNow(),
    source: text("source").notNull().default("whatsapp"),
    kind: text("kind").$type<"rejected" | "clamped" | "expired">().notNull().default("rejected"),
    reason: text("reason").notNull(),
    raw: text("raw").notNull(),
  },
  (t) => [index("webhook_dead_letters_received_idx").on(t.receivedAt), index("webhook_dead_letters_team_idx").on(t.teamId, t.id)],
);
