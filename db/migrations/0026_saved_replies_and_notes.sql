-- Saved replies (team-wide canned responses, shortcut unique per team, stored lower-case)
-- and private notes of a conversation (keyed like a conversation, never messages). Removing an
-- agent keeps their notes, unsigned (SET NULL of agent_id only, as conversations' assignee).
CREATE TABLE "saved_replies" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"shortcut" text NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversation_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"wa_number_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"agent_id" integer,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "saved_replies" ADD CONSTRAINT "saved_replies_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_notes" ADD CONSTRAINT "conversation_notes_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_notes" ADD CONSTRAINT "conversation_notes_wa_number_fk" FOREIGN KEY ("team_id","wa_number_id") REFERENCES "public"."wa_numbers"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_notes" ADD CONSTRAINT "conversation_notes_contact_fk" FOREIGN KEY ("team_id","contact_id") REFERENCES "public"."contacts"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_notes" ADD CONSTRAINT "conversation_notes_agent_fk" FOREIGN KEY ("team_id","agent_id") REFERENCES "public"."agents"("team_id","id") ON DELETE SET NULL ("agent_id") ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "saved_replies_team_shortcut_uq" ON "saved_replies" USING btree ("team_id","shortcut");--> statement-breakpoint
CREATE INDEX "saved_replies_team_idx" ON "saved_replies" USING btree ("team_id","id");--> statement-breakpoint
CREATE INDEX "conversation_notes_key_idx" ON "conversation_notes" USING btree ("team_id","wa_number_id","contact_id","id");