import { foreignKey, index, integer, pgTable, serial, text, timestamp, unique, uniqueIndex } from "drizzle-orm/pg-core";
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
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("agents_email_uq").on(t.email),
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
  },
  (t) => [
    uniqueIndex("agent_sessions_hash_uq").on(t.tokenHash),
    foreignKey({ name: "agent_sessions_agent_fk", columns: [t.teamId, t.agentId], foreignColumns: [agents.teamId, agents.id] }).onDelete(
      "cascade",
    ),
  ],
);
