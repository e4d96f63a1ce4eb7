CREATE TABLE "webhook_dead_letters" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer,
	"wa_number_id" integer,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"source" text DEFAULT 'whatsapp' NOT NULL,
	"kind" text DEFAULT 'rejected' NOT NULL,
	"reason" text NOT NULL,
	"raw" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_dead_letters" ADD CONSTRAINT "webhook_dead_letters_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_dead_letters" ADD CONSTRAINT "webhook_dead_letters_wa_number_id_wa_numbers_id_fk" FOREIGN KEY ("wa_number_id") REFERENCES "public"."wa_numbers"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_dead_letters_received_idx" ON "webhook_dead_letters" USING btree ("received_at");--> statement-breakpoint
CREATE INDEX "webhook_dead_letters_team_idx" ON "webhook_dead_letters" USING btree ("team_id","id");