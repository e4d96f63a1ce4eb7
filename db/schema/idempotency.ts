import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";

/**
 * `Idempotency-Key` of send requests: the first response is replayed for a retry within
 * IDEMPOTENCY_TTL_HOURS; older keys are swept by `created_at` (lib/idempotency/service.ts).
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    key: text("key").notNull(),
    requestHash: text("request_hash").notNull(),
    statusCode: integer("status_code"),
    response: jsonb("response"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.teamId, t.key] }), index("idempotency_keys_created_idx").on(t.createdAt)],
);
