-- The conversations table (0010) predates the composite tenant keys (0013): its references now
-- include team_id like every other. Removing an agent unassigns their conversations (SET NULL of
-- that one column; drizzle-kit cannot say so, hence the hand edit on the last statement).
ALTER TABLE "conversations" DROP CONSTRAINT "conversations_wa_number_id_wa_numbers_id_fk";
--> statement-breakpoint
ALTER TABLE "conversations" DROP CONSTRAINT "conversations_contact_id_contacts_id_fk";
--> statement-breakpoint
ALTER TABLE "conversations" DROP CONSTRAINT "conversations_assignee_agent_id_agents_id_fk";
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_wa_number_fk" FOREIGN KEY ("team_id","wa_number_id") REFERENCES "public"."wa_numbers"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_contact_fk" FOREIGN KEY ("team_id","contact_id") REFERENCES "public"."contacts"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assignee_fk" FOREIGN KEY ("team_id","assignee_agent_id") REFERENCES "public"."agents"("team_id","id") ON DELETE SET NULL ("assignee_agent_id") ON UPDATE no action;