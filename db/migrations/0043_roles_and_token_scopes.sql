-- Roles of agents and scopes of API tokens (docs/roles.md). Existing tokens keep every scope, so
-- nothing outside breaks; existing agents become `agent`, except each team's earliest agent, who
-- becomes its `owner` (every team that has agents keeps one owner). last_sign_in_at starts from the
-- agent's newest session still stored.
ALTER TABLE "api_tokens" ADD COLUMN "scopes" text[] DEFAULT array['send','history','contacts','broadcasts','inbox','reports','webhooks_admin','agents_admin']::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "role" text DEFAULT 'agent' NOT NULL;--> statement-breakpoint
ALTER TABLE "agents" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
UPDATE "agents" SET "role" = 'owner' WHERE "id" IN (SELECT DISTINCT ON ("team_id") "id" FROM "agents" ORDER BY "team_id", "created_at", "id");--> statement-breakpoint
UPDATE "agents" a SET "last_sign_in_at" = s."at" FROM (SELECT "agent_id", max("created_at") AS "at" FROM "agent_sessions" GROUP BY "agent_id") s WHERE s."agent_id" = a."id";--> statement-breakpoint
CREATE INDEX "agents_team_role_idx" ON "agents" USING btree ("team_id","role");--> statement-breakpoint
ALTER TABLE "agents" ADD CONSTRAINT "agents_role_ck" CHECK ("agents"."role" in ('owner', 'admin', 'supervisor', 'agent'));
