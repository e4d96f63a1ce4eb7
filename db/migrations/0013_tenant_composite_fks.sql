-- Tenant-safe by construction: every reference between two tenant-owned rows includes team_id,
-- so a row can only point at a row of its own team. Until now the application's team filters
-- were the only guard (a query that forgot one could, say, put one team's label on another
-- team's contact); now such a write fails with a foreign key violation (23503).
--
-- 1. The single-column references are dropped and re-created as (team_id, x_id).
ALTER TABLE "agent_sessions" DROP CONSTRAINT "agent_sessions_agent_id_agents_id_fk";--> statement-breakpoint
ALTER TABLE "templates" DROP CONSTRAINT "templates_wa_number_id_wa_numbers_id_fk";--> statement-breakpoint
ALTER TABLE "contact_labels" DROP CONSTRAINT "contact_labels_contact_id_contacts_id_fk";--> statement-breakpoint
ALTER TABLE "contact_labels" DROP CONSTRAINT "contact_labels_label_id_labels_id_fk";--> statement-breakpoint
ALTER TABLE "message_events" DROP CONSTRAINT "message_events_message_id_messages_id_fk";--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_wa_number_id_wa_numbers_id_fk";--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_contact_id_contacts_id_fk";--> statement-breakpoint
-- 2. A composite reference needs a unique key on the parent's (team_id, id). The parents are
-- small tables (contacts the largest), so each gets a unique constraint; labels' (team_id, id)
-- index becomes that constraint.
DROP INDEX "labels_team_idx";--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_team_id_id_uq" UNIQUE("team_id","id");--> statement-breakpoint
ALTER TABLE "wa_numbers" ADD CONSTRAINT "wa_numbers_team_id_id_uq" UNIQUE("team_id","id");--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_team_id_id_uq" UNIQUE("team_id","id");--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_team_id_id_uq" UNIQUE("team_id","id");--> statement-breakpoint
ALTER TABLE "labels" ADD CONSTRAINT "labels_team_id_id_uq" UNIQUE("team_id","id");--> statement-breakpoint
ALTER TABLE "bots" ADD CONSTRAINT "bots_team_id_id_uq" UNIQUE("team_id","id");--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_team_id_id_uq" UNIQUE("team_id","id");--> statement-breakpoint
-- messages is the hot table (millions of rows, every send an insert): instead of a second
-- unique index beside the primary key, the primary key itself becomes (id, team_id). It still
-- serves every lookup by id (id leads), ids still come from one sequence, and there is one
-- index to maintain per insert, as before. (Rebuilding it locks messages for the length of one
-- index build.)
ALTER TABLE "messages" DROP CONSTRAINT "messages_pkey";--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_pkey" PRIMARY KEY("id","team_id");--> statement-breakpoint
-- 3. The composite references. Nullable ones (templates.wa_number_id, messages.template_id,
-- campaign_id, bot_id, reply_to_message_id, webhook_deliveries.message_id) are MATCH SIMPLE, the
-- default: a null id references nothing. Existing rows that link two teams make this migration
-- fail (they are a bug to look at, not something to repair silently).
ALTER TABLE "agent_sessions" ADD CONSTRAINT "agent_sessions_agent_fk" FOREIGN KEY ("team_id","agent_id") REFERENCES "public"."agents"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "templates" ADD CONSTRAINT "templates_wa_number_fk" FOREIGN KEY ("team_id","wa_number_id") REFERENCES "public"."wa_numbers"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_labels" ADD CONSTRAINT "contact_labels_contact_fk" FOREIGN KEY ("team_id","contact_id") REFERENCES "public"."contacts"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contact_labels" ADD CONSTRAINT "contact_labels_label_fk" FOREIGN KEY ("team_id","label_id") REFERENCES "public"."labels"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The references held by the big tables (messages and the two tables beside it) are added NOT
-- VALID and validated by separate statements. Each VALIDATE checks the existing rows with one
-- anti-join and, on its own, takes only a SHARE UPDATE EXCLUSIVE lock on the table (writes go
-- on). drizzle's migrator applies pending migrations in one transaction, so here the stronger
-- locks of the ADDs are still held until commit; an operator who must keep messages writable
-- during a long validation can comment the VALIDATE lines out and run them after the deploy.
ALTER TABLE "messages" ADD CONSTRAINT "messages_wa_number_fk" FOREIGN KEY ("team_id","wa_number_id") REFERENCES "public"."wa_numbers"("team_id","id") ON DELETE cascade ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_contact_fk" FOREIGN KEY ("team_id","contact_id") REFERENCES "public"."contacts"("team_id","id") ON DELETE cascade ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_template_fk" FOREIGN KEY ("team_id","template_id") REFERENCES "public"."templates"("team_id","id") ON DELETE no action ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_campaign_fk" FOREIGN KEY ("team_id","campaign_id") REFERENCES "public"."campaigns"("team_id","id") ON DELETE no action ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_bot_fk" FOREIGN KEY ("team_id","bot_id") REFERENCES "public"."bots"("team_id","id") ON DELETE no action ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_reply_to_fk" FOREIGN KEY ("reply_to_message_id","team_id") REFERENCES "public"."messages"("id","team_id") ON DELETE no action ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "message_events" ADD CONSTRAINT "message_events_message_fk" FOREIGN KEY ("message_id","team_id") REFERENCES "public"."messages"("id","team_id") ON DELETE cascade ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_message_fk" FOREIGN KEY ("message_id","team_id") REFERENCES "public"."messages"("id","team_id") ON DELETE cascade ON UPDATE no action NOT VALID;--> statement-breakpoint
ALTER TABLE "messages" VALIDATE CONSTRAINT "messages_wa_number_fk";--> statement-breakpoint
ALTER TABLE "messages" VALIDATE CONSTRAINT "messages_contact_fk";--> statement-breakpoint
ALTER TABLE "messages" VALIDATE CONSTRAINT "messages_template_fk";--> statement-breakpoint
ALTER TABLE "messages" VALIDATE CONSTRAINT "messages_campaign_fk";--> statement-breakpoint
ALTER TABLE "messages" VALIDATE CONSTRAINT "messages_bot_fk";--> statement-breakpoint
ALTER TABLE "messages" VALIDATE CONSTRAINT "messages_reply_to_fk";--> statement-breakpoint
ALTER TABLE "message_events" VALIDATE CONSTRAINT "message_events_message_fk";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" VALIDATE CONSTRAINT "webhook_deliveries_message_fk";--> statement-breakpoint
-- 4. The delete side of the references to messages: when a message goes (only ever with its
-- team) its replies and deliveries are looked up by it. Partial: only inbound replies carry a
-- reply_to_message_id.
CREATE INDEX "messages_reply_to_idx" ON "messages" USING btree ("team_id","reply_to_message_id") WHERE reply_to_message_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_message_idx" ON "webhook_deliveries" USING btree ("message_id");
