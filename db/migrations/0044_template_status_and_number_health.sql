-- Templates and numbers follow Meta's webhooks (docs/features/templates-and-number-health.md):
-- template quality and status time, number quality/tier, a broadcast's pause reason, and the
-- history of every change Meta made to a template or a number.
CREATE TABLE "number_health_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"wa_number_id" integer NOT NULL,
	"field" text NOT NULL,
	"event" text NOT NULL,
	"previous_quality_rating" text,
	"quality_rating" text,
	"previous_messaging_limit_tier" text,
	"messaging_limit_tier" text,
	"meta_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb
);
--> statement-breakpoint
CREATE TABLE "template_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"field" text NOT NULL,
	"previous" text,
	"value" text NOT NULL,
	"reason" text,
	"meta_at" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"raw" jsonb
);
--> statement-breakpoint
ALTER TABLE "wa_numbers" ADD COLUMN "quality_rating" text;--> statement-breakpoint
ALTER TABLE "wa_numbers" ADD COLUMN "messaging_limit_tier" text;--> statement-breakpoint
ALTER TABLE "wa_numbers" ADD COLUMN "health_event" text;--> statement-breakpoint
ALTER TABLE "wa_numbers" ADD COLUMN "health_updated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "quality_score" text DEFAULT 'UNKNOWN' NOT NULL;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "status_changed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "paused_reason" text;--> statement-breakpoint
ALTER TABLE "number_health_changes" ADD CONSTRAINT "number_health_changes_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "number_health_changes" ADD CONSTRAINT "number_health_changes_wa_number_fk" FOREIGN KEY ("team_id","wa_number_id") REFERENCES "public"."wa_numbers"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_changes" ADD CONSTRAINT "template_changes_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "template_changes" ADD CONSTRAINT "template_changes_template_fk" FOREIGN KEY ("team_id","template_id") REFERENCES "public"."templates"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "number_health_changes_number_idx" ON "number_health_changes" USING btree ("team_id","wa_number_id","id");--> statement-breakpoint
CREATE INDEX "template_changes_template_idx" ON "template_changes" USING btree ("team_id","template_id","id");--> statement-breakpoint
CREATE INDEX "templates_team_external_idx" ON "templates" USING btree ("team_id","external_id");