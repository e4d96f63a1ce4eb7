import { index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { teams } from "./teams";

/**
 * Team-wide canned responses: an agent types `/shortcut` in the composer and the content is put
 * in the box with `{{name}}`, `{{number}}` and `{{agent}}` filled in. The shortcut is stored in
 * lower case, so the unique index makes it unique per team whatever the case typed.
 */
export const savedReplies = pgTable(
  "saved_replies",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    shortcut: text("shortcut").notNull(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("saved_replies_team_shortcut_uq").on(t.teamId, t.shortcut), index("saved_replies_team_idx").on(t.teamId, t.id)],
);
