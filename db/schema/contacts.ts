import { foreignKey, index, integer, pgTable, primaryKey, serial, text, timestamp, unique, uniqueIndex } from "drizzle-orm/pg-core";
import { teams } from "./teams";

export const MARKETING_OPT_OUT_REASONS = ["keyword", "provider", "agent", "import"] as const;
export type MarketingOptOutReason = (typeof MARKETING_OPT_OUT_REASONS)[number];

/** Customers. `customerNumber` is digits only; `customerId` is the platform's id for them. */
export const contacts = pgTable(
  "contacts",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    customerNumber: text("customer_number"),
    customerId: text("customer_id"),
    name: text("name").notNull().default(""),
    /**
     * Opted out of MARKETING templates (docs/features/opt-out.md): when, and why (`keyword`: the customer wrote
     * an opt-out word; `provider`: Meta refused a send with 131050; `agent`; `import`). Null: not opted out.
     */
    marketingOptedOutAt: timestamp("marketing_opted_out_at", { withTimezone: true }),
    marketingOptOutReason: text("marketing_opt_out_reason").$type<MarketingOptOutReason>(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("contacts_team_number_uq").on(t.teamId, t.customerNumber),
    uniqueIndex("contacts_team_customer_id_uq").on(t.teamId, t.customerId),
    index("contacts_team_name_idx").on(t.teamId, t.name),
    unique("contacts_team_id_id_uq").on(t.teamId, t.id),
  ],
);

/** Labels (spec 2.2), owned by a team. */
export const labels = pgTable(
  "labels",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    title: text("title").notNull(),
    description: text("description"),
    bgColor: text("bg_color").notNull(),
    textColor: text("text_color").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  // (team_id, id) is unique: the target of contact_labels' composite foreign key, and the team's list order.
  (t) => [unique("labels_team_id_id_uq").on(t.teamId, t.id)],
);

/**
 * Label assignments; the pair is the key, so an assignment can never be duplicated. Both
 * references include team_id, so a contact can only carry labels of its own team whatever the
 * query that writes the row checked (migration 0013).
 */
export const contactLabels = pgTable(
  "contact_labels",
  {
    // No foreign key of its own to teams (migration 0030): the contact's and the label's keys
    // include team_id and cascade, and checking a third one took a key-share lock on the team's
    // one row in every label change (a hot row under concurrent changes).
    teamId: integer("team_id").notNull(),
    contactId: integer("contact_id").notNull(),
    labelId: integer("label_id").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.contactId, t.labelId] }),
    index("contact_labels_label_idx").on(t.labelId),
    foreignKey({
      name: "contact_labels_contact_fk",
      columns: [t.teamId, t.contactId],
      foreignColumns: [contacts.teamId, contacts.id],
    }).onDelete("cascade"),
    foreignKey({ name: "contact_labels_label_fk", columns: [t.teamId, t.labelId], foreignColumns: [labels.teamId, labels.id] }).onDelete(
      "cascade",
    ),
  ],
);
