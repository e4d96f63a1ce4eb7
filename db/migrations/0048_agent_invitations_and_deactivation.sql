-- Invitations: one-time links (only the token's SHA-256 kept) that create an agent with a role,
-- and agents.deactivated_at: a deactivated agent cannot sign in and keeps its name on its past
-- messages (docs/features/agents.md).
CREATE TABLE "agent_invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by_kind" text NOT NULL,
	"invited_by_id" integer,
	"invited_by_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"used_by_agent_id" integer,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "agent_invitations_role_ck" CHECK ("agent_invitations"."role" in ('owner', 'admin', 'supervisor', 'agent'))
);
--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "deactivated_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agent_invitations" ADD CONSTRAINT "agent_invitations_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "agent_invitations_token_hash_uq" ON "agent_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "agent_invitations_pending_email_uq" ON "agent_invitations" USING btree ("team_id","email") WHERE used_at IS NULL AND revoked_at IS NULL;--> statement-breakpoint
CREATE INDEX "agent_invitations_team_idx" ON "agent_invitations" USING btree ("team_id","id");