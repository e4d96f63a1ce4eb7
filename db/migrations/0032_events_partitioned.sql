-- The event log partitioned by day of created_at (UTC), so its retention drops whole days instead
-- of deleting a row per status (db/schema/events.ts, lib/events/prune.ts, docs/write-path.md).
-- The existing table is not copied: it becomes the partition of everything up to tomorrow, and is
-- dropped whole once that day is past the retention. Its key becomes (id, created_at), the one index
-- built here; attaching it scans it once (no rewrite), and its other indexes are reused as they match.
-- Days from tomorrow on get partitions of their own from db/functions/events_partitions.sql,
-- called at start and every 10 minutes by every process's chores; a row for a day without one
-- lands in the default partition rather than failing its transaction.
-- Retired since 0023 (db/functions/00_retired.sql drops it after the migrations); on a database
-- migrated from scratch it still exists here, and would stay on the renamed table.
DROP TRIGGER IF EXISTS "events_notify" ON "events";--> statement-breakpoint
ALTER TABLE "events" RENAME TO "events_legacy";--> statement-breakpoint
ALTER SEQUENCE "events_id_seq" OWNED BY NONE;--> statement-breakpoint
ALTER TABLE "events_legacy" DROP CONSTRAINT "events_pkey", ADD CONSTRAINT "events_legacy_pkey" PRIMARY KEY ("id","created_at");--> statement-breakpoint
ALTER INDEX "events_tail_idx" RENAME TO "events_legacy_tail_idx";--> statement-breakpoint
ALTER INDEX "events_team_tail_idx" RENAME TO "events_legacy_team_tail_idx";--> statement-breakpoint
ALTER INDEX "events_created_at_idx" RENAME TO "events_legacy_created_at_idx";--> statement-breakpoint
CREATE TABLE "events" (
	"id" bigint DEFAULT nextval('events_id_seq') NOT NULL,
	"team_id" integer NOT NULL,
	"type" text NOT NULL,
	"wa_number_id" integer,
	"contact_id" integer,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"xact_id" "xid8" DEFAULT pg_current_xact_id() NOT NULL,
	CONSTRAINT "events_id_created_at_pk" PRIMARY KEY("id","created_at")
) PARTITION BY RANGE ("created_at");--> statement-breakpoint
ALTER SEQUENCE "events_id_seq" OWNED BY "events"."id";--> statement-breakpoint
CREATE INDEX "events_tail_idx" ON "events" USING btree ("xact_id","id");--> statement-breakpoint
CREATE INDEX "events_team_tail_idx" ON "events" USING btree ("team_id","xact_id","id");--> statement-breakpoint
CREATE INDEX "events_created_at_idx" ON "events" USING btree ("created_at");--> statement-breakpoint
CREATE TABLE "events_default" PARTITION OF "events" DEFAULT;--> statement-breakpoint
DO $$
BEGIN
  EXECUTE format('ALTER TABLE "events" ATTACH PARTITION "events_legacy" FOR VALUES FROM (MINVALUE) TO (%L)',
    date_trunc('day', now(), 'UTC') + interval '1 day');
END $$;
