import { check, foreignKey, index, integer, pgTable, serial, text, timestamp, unique, uniqueIndex } from "drizzle-orm/pg-core";
import { sql } from "drizzle-orm";
import { teams } from "./teams";

/** Dashboard users. Passwords are stored as a memory-hard hash (scrypt, see lib/auth/password.ts). */
export const agents = pgTable(
  "agents",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    name: text("name").notNull(),
    passwordHash: text("password_hash").notNull(),
    locale: text("locale").notNull().default("es"),
    /** owner, admin, supervisor or agent: what the agent may do (lib/auth/permissions.ts, docs/roles.md). */
    role: text("role").notNull().default("agent"),
    lastSignInAt: timestamp("last_sign_in_at", { withTimezone: true }),
    /**
     * Set while the agent is deactivated (docs/features/agents.md): it cannot sign in, its sessions
     * were ended with it, and its name stays on what it wrote. Null: active.
     */
    deactivatedAt: timestamp("deactivated_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("agents_email_uq").on(t.email),
    check("agents_role_ck", sql`${t.role} in ('owner', 'admin', 'supervisor', 'agent')`),
    index("agents_team_role_idx").on(t.teamId, t.role),
    index("agents_team_idx").on(t.teamId),
    unique("agents_team_id_id_uq").on(t.teamId, t.id),
  ],
);

/** Browser sessions: the cookie holds a random token, the table only its SHA-256. */
export const agentSessions = pgTable(
  "agent_sessions",
  {
    id: serial("id").primaryKey(),
    agentId: integer("agent_id").notNull(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    tokenHash: text("token_hash").notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    /** Set when the session was ended for the agent (too many sessions, or the agent deactivated): its next request is told why. */
    endedAt: timestamp("ended_at", { withTimezone: true }),
    endedReason: text("ended_reason"),
  },
  (t) => [
    uniqueIndex("agent_sessions_hash_uq").on(t.tokenHash),
    index("agent_sessions_agent_idx").on(t.agentId, t.id),
    foreignKey({ name: "agent_sessions_agent_fk", columns: [t.teamId, t.agentId], foreignColumns: [agents.teamId, agents.id] }).onDelete(
      "cascade",
    ),
  ],
);
