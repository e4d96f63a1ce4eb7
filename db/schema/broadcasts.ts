import { foreignKey, index, integer, jsonb, pgTable, serial, text, timestamp, unique } from "drizzle-orm/pg-core";
import { teams } from "./teams";
import { waNumbers } from "./wa-numbers";
import { templates } from "./templates";
import { contacts } from "./contacts";

export type BroadcastStatusValue = "SCHEDULED" | "SENDING" | "PAUSED" | "CANCELLED" | "DONE";
export type BroadcastAudienceValue = { labels_any: number[]; labels_all: number[]; labels_exclude: number[] };
/** What every recipient's message shares, as given (parameter values still hold `{{name}}` etc.). */
export type BroadcastSendValue = {
  header_param: { key: string; value: string } | null;
  body_params: { key: string; value: string }[];
  /** URL buttons with a variable (values may hold `{{name}}` etc.); absent on broadcasts made before. */
  button_params?: { index: number; value: string }[];
  media_path: string | null;
  response_handler: "CAMPAIGN" | "CHATBOT";
  campaign_id: number | null;
  bot_id: number | null;
};

/**
 * A broadcast (docs/features/broadcasts.md): one template to the contacts of a label audience. Its messages are
 * ordinary outbound rows (messages.broadcast_id), enqueued in batches at creation; the worker sends
 * them like any other. `recipients` / `rejected` grow as batches commit; `enqueue_cursor` is the last
 * contact id processed and `enqueued_at` is set once the whole audience is (DONE needs it).
 * `progress_at` / `progress_key` throttle the `broadcast.updated` events (lib/broadcasts/announce.ts, lifecycle.ts sweepBroadcasts).
 */
export const broadcasts = pgTable(
  "broadcasts",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    waNumberId: integer("wa_number_id").notNull(),
    templateId: integer("template_id").notNull(),
    name: text("name").notNull(),
    status: text("status").$type<BroadcastStatusValue>().notNull(),
    audience: jsonb("audience").$type<BroadcastAudienceValue>().notNull(),
    send: jsonb("send").$type<BroadcastSendValue>().notNull(),
    sentGroup: text("sent_group").notNull(),
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    startedAt: timestamp("started_at", { withTimezone: true }),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
    createdByAgentId: integer("created_by_agent_id"),
    createdByAgentName: text("created_by_agent_name"),
    recipients: integer("recipients").notNull().default(0),
    rejected: integer("rejected").notNull().default(0),
    enqueueCursor: integer("enqueue_cursor").notNull().default(0),
    enqueuedAt: timestamp("enqueued_at", { withTimezone: true }),
    progressAt: timestamp("progress_at", { withTimezone: true }),
    progressKey: text("progress_key"),
    // Why a PAUSED broadcast was paused by the service rather than by an agent (its template
    // paused or disabled by Meta: lib/templates/meta-updates.ts); null otherwise, cleared on resume.
    pausedReason: text("paused_reason"),
  },
  (t) => [
    // The target of the composite references below and the team's list order (newest first).
    unique("broadcasts_team_id_id_uq").on(t.teamId, t.id),
    foreignKey({
      name: "broadcasts_wa_number_fk",
      columns: [t.teamId, t.waNumberId],
      foreignColumns: [waNumbers.teamId, waNumbers.id],
    }).onDelete("cascade"),
    foreignKey({ name: "broadcasts_template_fk", columns: [t.teamId, t.templateId], foreignColumns: [templates.teamId, templates.id] }),
    // The progress sweep reads the broadcasts still moving.
    index("broadcasts_active_idx").on(t.status, t.finishedAt),
  ],
);

/** A contact of a broadcast's audience that got no message: why (the per-recipient checks of 4.1). */
export const broadcastRejections = pgTable(
  "broadcast_rejections",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    broadcastId: integer("broadcast_id").notNull(),
    contactId: integer("contact_id").notNull(),
    errors: jsonb("errors").$type<Record<string, string[]>>().notNull(),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index("broadcast_rejections_broadcast_idx").on(t.teamId, t.broadcastId, t.id),
    foreignKey({
      name: "broadcast_rejections_broadcast_fk",
      columns: [t.teamId, t.broadcastId],
      foreignColumns: [broadcasts.teamId, broadcasts.id],
    }).onDelete("cascade"),
    foreignKey({
      name: "broadcast_rejections_contact_fk",
      columns: [t.teamId, t.contactId],
      foreignColumns: [contacts.teamId, contacts.id],
    }).onDelete("cascade"),
  ],
);
