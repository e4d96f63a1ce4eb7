ALTER TABLE "message_stats_deltas" ADD COLUMN "from_status" text;--> statement-breakpoint
ALTER TABLE "message_stats_deltas" ADD COLUMN "from_error_code" bigint;--> statement-breakpoint
ALTER TABLE "message_stats_deltas" ADD COLUMN "from_error_title" text;