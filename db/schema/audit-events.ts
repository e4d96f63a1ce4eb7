import { bigserial, index, integer, jsonb, pgTable, text, timestamp } from "drizzle-orm/pg-core";
import { teams } from "./teams";

/**
 * The audit trail (lib/audit): who changed what in a team's workspace, and every sign-in. The
 * actor and the target are copied as they were (name, label), so a row still reads right after
 * either is renamed or deleted. `changes` holds `{ field: { before, after } }`; a secret's value
 * is never stored, only that it changed. Append-only: its migration adds a trigger that refuses
 * every UPDATE, and every DELETE but the retention's (AUDIT_RETENTION_DAYS) and a team's removal.
 */
export const auditEvents = pgTable(
  "audit_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    at: timestamp("at", { withTimezone: true }).notNull().defaultNow(),
    /** `agent`, `token` or `system` (the admin CLI, the set-up). */
    actorKind: text("actor_kind").notNull(),
    actorId: integer("actor_id"),
    actorLabel: text("actor_label").notNull(),
    /** The client address as the per-address limits read it (lib/http/client-address.ts). */
    ip: text("ip"),
    /** `<what>.<verb>`: `label.updated`, `sign_in.failed`… (lib/audit/actions.ts). */
    action: text("action").notNull(),
    targetKind: text("target_kind"),
    targetId: text("target_id"),
    targetLabel: text("target_label"),
    changes: jsonb("changes"),
  },
  (t) => [index("audit_events_team_at_idx").on(t.teamId, t.at, t.id), index("audit_events_team_action_idx").on(t.teamId, t.action, t.at)],
);
