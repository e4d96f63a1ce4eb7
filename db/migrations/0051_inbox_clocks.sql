ALTER TABLE "teams" ADD COLUMN "waiting_alert_minutes" integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "first_response_seconds" integer;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "resolved_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "teams" ADD CONSTRAINT "teams_waiting_alert_minutes_ck" CHECK ("teams"."waiting_alert_minutes" between 1 and 1440);--> statement-breakpoint
-- Conversations resolved before this column: their last change is the best known resolution time.
UPDATE "conversations" SET "resolved_at" = "updated_at" WHERE "status" = 'resolved';