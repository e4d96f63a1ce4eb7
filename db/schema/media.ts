import { customType, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { teams } from "./teams";

const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (v) => Buffer.from(v),
});

/**
 * Uploaded files. The bytes live in Postgres so every web replica and worker sees them with no
 * shared disk; `path` (`uploads/team<id>/<uuid>.<ext>`) is the contract's `media_path`.
 */
export const media = pgTable(
  "media",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    originalName: text("original_name").notNull().default(""),
    contentType: text("content_type").notNull(),
    size: integer("size").notNull(),
    sha256: text("sha256").notNull(),
    content: bytea("content").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex("media_path_uq").on(t.path)],
);
