-- Sign-in throttle state, the per-agent session cap and the cross-process stream cap
-- (docs/auth-limits.md). Both new tables are UNLOGGED (drizzle-kit cannot say so): they are
-- written on every sign-in or stream open, and a crash that loses them only forgets some delays
-- (the throttle) or some leases (which expire by themselves within a minute anyway).
CREATE UNLOGGED TABLE "sign_in_attempts" (
	"key" text PRIMARY KEY NOT NULL,
	"failures" integer DEFAULT 0 NOT NULL,
	"last_failure_at" timestamp with time zone,
	"last_success_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNLOGGED TABLE "open_streams" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "agent_sessions" ADD COLUMN "ended_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "agent_sessions" ADD COLUMN "ended_reason" text;--> statement-breakpoint
CREATE INDEX "sign_in_attempts_failure_idx" ON "sign_in_attempts" USING btree ("last_failure_at");--> statement-breakpoint
CREATE INDEX "sign_in_attempts_success_idx" ON "sign_in_attempts" USING btree ("last_success_at");--> statement-breakpoint
CREATE INDEX "open_streams_holder_idx" ON "open_streams" USING btree ("holder","expires_at");--> statement-breakpoint
CREATE INDEX "open_streams_expires_idx" ON "open_streams" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "agent_sessions_agent_idx" ON "agent_sessions" USING btree ("agent_id","id");