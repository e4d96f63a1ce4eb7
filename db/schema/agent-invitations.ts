import { check, index, integer, pgTable, serial, text, timestamp, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { teams } from "./teams";

/**
 * One-time links that let a person join a team as an agent with a given role
 * (docs/features/agents.md). The link's token is shown once, to whoever invited; only its SHA-256
 * is kept. A row is pending until it is used (the agent is created, in the same transaction that
 * sets `used_at`), revoked, or past `expires_at`. Rows stay after use or revocation: they are
 * what "this link was already used / revoked" is answered from.
 */
export const agentInvitations = pgTable(
  "agent_invitations",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    /** Lower-cased, as sign-in compares it. */
    email: text("email").notNull(),
    /** The role the new agent gets (lib/auth/permissions.ts). */
    role: text("role").notNull(),
    tokenHash: text("token_hash").notNull(),
    /** Who invited, copied as it was (like the audit trail's actor): `agent`, `token` or `system`. */
    invitedByKind: text("invited_by_kind").notNull(),
    invitedById: integer("invited_by_id"),
    invitedByLabel: text("invited_by_label").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    usedAt: timestamp("used_at", { withTimezone: true }),
    /** The agent the invitation created (no foreign key: the row outlives the agent's removal). */
    usedByAgentId: integer("used_by_agent_id"),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
  },
  (t) => [
    uniqueIndex("agent_invitations_token_hash_uq").on(t.tokenHash),
    // One pending link per e-mail and team: inviting again revokes the earlier link first.
    uniqueIndex("agent_invitations_pending_email_uq")
      .on(t.teamId, t.email)
      .where(sql`used_at IS NULL AND revoked_at IS NULL`),
    index("agent_invitations_team_idx").on(t.teamId, t.id),
    check("agent_invitations_role_ck", sql`${t.role} in ('owner', 'admin', 'supervisor', 'agent')`),
  ],
);
