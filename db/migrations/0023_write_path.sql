-- The write path without instance-wide serialization (docs/write-path.md): the tables
-- and columns only. The trigger functions that use them, and the retirement of the old ones (the
-- events NOTIFY, the in-place message_stats upserts), are in db/functions/, applied right after
-- the migrations in one transaction (db/functions.ts), so writers never see a half-swapped set.
CREATE TABLE "message_stats_deltas" (
	"team_id" integer NOT NULL,
	"day" date NOT NULL,
	"wa_number_id" integer NOT NULL,
	"template_name" text NOT NULL,
	"sent_group" text NOT NULL,
	"status" text NOT NULL,
	"error_code" bigint NOT NULL,
	"error_title" text NOT NULL,
	"messages" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "parked_statuses" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"wa_number_id" integer NOT NULL,
	"provider_message_id" text NOT NULL,
	"callback_data" text,
	"status" text NOT NULL,
	"update" jsonb NOT NULL,
	"reason" text NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"provider_timestamp" bigint
);
--> statement-breakpoint
DROP INDEX "events_team_id_idx";--> statement-breakpoint
-- A constant default first (stored once, no rewrite): rows written before this migration read
-- xact_id 0, older than any transaction, as they are (all long committed). A volatile default
-- here would rewrite every row. New rows then take their own transaction's id.
ALTER TABLE "events" ADD COLUMN "xact_id" "xid8" DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ALTER COLUMN "xact_id" SET DEFAULT pg_current_xact_id();--> statement-breakpoint
ALTER TABLE "parked_statuses" ADD CONSTRAINT "parked_statuses_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "parked_statuses" ADD CONSTRAINT "parked_statuses_wa_number_id_wa_numbers_id_fk" FOREIGN KEY ("wa_number_id") REFERENCES "public"."wa_numbers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_stats_deltas_team_idx" ON "message_stats_deltas" USING btree ("team_id");--> statement-breakpoint
CREATE INDEX "parked_statuses_due_idx" ON "parked_statuses" USING btree ("next_attempt_at");--> statement-breakpoint
CREATE INDEX "parked_statuses_callback_idx" ON "parked_statuses" USING btree ("wa_number_id","callback_data");--> statement-breakpoint
CREATE INDEX "parked_statuses_provider_id_idx" ON "parked_statuses" USING btree ("wa_number_id","provider_message_id");--> statement-breakpoint
CREATE INDEX "events_tail_idx" ON "events" USING btree ("xact_id","id");--> statement-breakpoint
CREATE INDEX "events_team_tail_idx" ON "events" USING btree ("team_id","xact_id","id");--> statement-breakpoint
-- Which set of db/functions is applied (the sha-256 of its script): the set is applied again only
-- when it changed, so a start takes no lock on messages when there is nothing to change.
CREATE TABLE "db_functions_applied" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL CHECK (id = 1),
	"sha256" text NOT NULL,
	"applied_at" timestamp with time zone DEFAULT now() NOT NULL
);
