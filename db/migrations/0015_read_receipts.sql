CREATE TABLE "read_receipts" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"wa_number_id" integer NOT NULL,
	"message_id" integer NOT NULL,
	"provider_message_id" text NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"error" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "read_receipts" ADD CONSTRAINT "read_receipts_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "read_receipts" ADD CONSTRAINT "read_receipts_wa_number_fk" FOREIGN KEY ("team_id","wa_number_id") REFERENCES "public"."wa_numbers"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "read_receipts" ADD CONSTRAINT "read_receipts_message_fk" FOREIGN KEY ("message_id","team_id") REFERENCES "public"."messages"("id","team_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "read_receipts_message_uq" ON "read_receipts" USING btree ("team_id","message_id");--> statement-breakpoint
CREATE INDEX "read_receipts_queue_idx" ON "read_receipts" USING btree ("next_attempt_at") WHERE status = 'PENDING';