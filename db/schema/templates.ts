import { foreignKey, index, integer, jsonb, pgTable, serial, text, timestamp, unique, uniqueIndex } from "drizzle-orm/pg-core";
import { teams } from "./teams";
import { waNumbers } from "./wa-numbers";

/** Header formats of a template (spec 2.1). */
export type HeaderFormat = "TEXT" | "IMAGE" | "DOCUMENT" | "VIDEO";

/**
 * A URL button's `example` is Meta's: one full link showing a value for its `{{1}}`. `index` is
 * the button's position in Meta's template when it differs from its position here: a template
 * synced from Meta whose other buttons (phone number, copy code, flow…) were left out. Absent
 * otherwise (templates added by the admin CLI or the demo seed, synced ones without such buttons).
 */
export type TemplateButton =
  | { type: "QUICK_REPLY"; text: string; payload?: string; index?: number }
  | { type: "URL"; text: string; url: string; example?: string[]; index?: number };

/**
 * One component of a template (spec 2.1), as stored in `templates.components`. The API's zod
 * schema (lib/templates/schemas.ts) validates exactly this shape and fails to compile if the two drift.
 */
export type TemplateComponent =
  | {
      type: "HEADER";
      format: HeaderFormat;
      text?: string;
      example?: { header_handle?: string[]; header_text?: string[] };
    }
  | { type: "BODY"; text: string; example?: { body_text: string[][] } }
  | { type: "FOOTER"; text: string }
  | { type: "BUTTONS"; buttons: TemplateButton[] };

/**
 * Message templates (spec 2.1). `waNumberId` null means the template is usable from every
 * number of the team (sandbox/demo); Cloud API templates synced from a business account carry
 * the number they were synced for. `externalId` is the provider's template id (2.1 `id`).
 * `status`, `rejectedReason`, `category` and `qualityScore` follow Meta's template webhooks
 * (docs/features/templates-and-number-health.md); each change is kept in `template_changes`.
 */
export const templates = pgTable(
  "templates",
  {
    id: serial("id").primaryKey(),
    teamId: integer("team_id")
      .notNull()
      .references(() => teams.id, { onDelete: "cascade" }),
    waNumberId: integer("wa_number_id"),
    externalId: text("external_id"),
    name: text("name").notNull(),
    language: text("language").notNull(),
    category: text("category").notNull(),
    status: text("status").notNull().default("APPROVED"),
    rejectedReason: text("rejected_reason").notNull().default("NONE"),
    // Meta's quality score of the template (GREEN, YELLOW, RED, UNKNOWN), from its
    // message_template_quality_update webhooks (lib/templates/meta-updates.ts).
    qualityScore: text("quality_score").notNull().default("UNKNOWN"),
    // When Meta last changed the status (the webhook's entry time): an older status webhook that
    // arrives late is recorded in the history but does not move the status back.
    statusChangedAt: timestamp("status_changed_at", { withTimezone: true }),
    components: jsonb("components").$type<TemplateComponent[]>().notNull(),
    defaultMediaPath: text("default_media_path"),
    createdAt: timestamp("created_at", { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp("updated_at", { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("templates_team_name_lang_uq").on(t.teamId, t.name, t.language),
    index("templates_team_idx").on(t.teamId, t.name),
    // Meta's template webhooks name a template by its id first (lib/templates/meta-updates.ts).
    index("templates_team_external_idx").on(t.teamId, t.externalId),
    unique("templates_team_id_id_uq").on(t.teamId, t.id),
    // MATCH SIMPLE (the default): a template of every number (wa_number_id null) references nothing.
    foreignKey({
      name: "templates_wa_number_fk",
      columns: [t.teamId, t.waNumberId],
      foreignColumns: [waNumbers.teamId, waNumbers.id],
    }).onDelete("cascade"),
  ],
);
