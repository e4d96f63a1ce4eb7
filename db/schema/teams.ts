import { sql } from "drizzle-orm";
import { boolean, check, integer, pgTable, serial, text, timestamp, uniqueIndex, index, type AnyPgColumn } from "drizzle-orm/pg-core";

export const teams = pgTable(
  "teams",
  {
    id: serial("id").primaryKey(),
    name: text("name").notNull(),
    /**
     * ISO 3166-1 alpha-2 country (`CO`) whose calling code the send form puts before a number typed
     * without one (docs/features/send-form.md); null: such a number is refused in the form.
     */
    defaultCountry: text("default_country"),
    /** An agent's reply to an unassigned conversation assigns it to that agent (docs/features/inbox.md). */
    replyAssigns: boolean("reply_assigns").notNull().default(true),
    /** Minutes a customer may wait before the inbox's row shows the wait in the alert colour (docs/features/inbox.md). */
    waitingAlertMinutes: integer("waiting_alert_minutes").notNull().default(15),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [check("teams_waiting_alert_minutes_ck", sql`${t.waitingAlertMinutes} between 1 and 1440`)],
);

/** API tokens: only the SHA-256 of the token is kept; the token itself is shown once. */
export const apiTokens = pgTable(
  "api_tokens",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    tokenHash: text("token_hash").notNull(),
    prefix: text("prefix").notNull(),
    /** What the token may do (lib/auth/permissions.ts, docs/roles.md); new tokens get every scope unless told. */
    scopes: text("scopes")
      .array()
      .notNull()
      .default(
        sql`array['send','history','contacts','broadcasts','inbox','reports','webhooks_admin','agents_admin','tokens_admin']::text[]`,
      ),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    /**
     * Who made it, as the audit trail names an actor (lib/audit/service.ts): an agent or a token of
     * the team, or the system (the admin CLI, the demo seed, and every token made before the API could make them).
     * The name is kept as it was then, so a renamed or removed agent still reads right.
     */
    createdByKind: text("created_by_kind").notNull().default("system"),
    createdById: integer("created_by_id"),
    createdByName: text("created_by_name").notNull().default("CLI"),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true }),
    /** Refused from then on (401 that says so); null: never expires (docs/features/api-tokens.md). */
    expiresAt: timestamp("expires_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    /** A rolled token: its successor, and the end of the overlap during which it still works. */
    replacedById: integer("replaced_by_id").references((): AnyPgColumn => apiTokens.id, { onDelete: "set null" }),
    overlapEndsAt: timestamp("overlap_ends_at", { withTimezone: true }),
  },
  (t) => [uniqueIndex("api_tokens_hash_uq").on(t.tokenHash), index("api_tokens_team_idx").on(t.teamId)],
);
