-- `messages` partitioned by RANGE (id), a partition per month of ids (db/schema/messages.ts,
-- db/functions/messages_partitions.sql, lib/messages/partitions.ts, docs/write-path.md, "Messages are
-- partitioned by month of ids"). By id rather than created_at: the key (id, team_id) and every
-- reference to it (message_status_history, read_receipts, webhook_deliveries, message_provider_ids,
-- messages.reply_to_message_id) already hold id, and a lookup by id reads one partition.
-- The existing table is not copied: it becomes the partition of every id drawn so far
-- (messages_legacy, FROM (MINVALUE) TO (the next id)); attaching it scans it once, no rewrite, and its
-- indexes and foreign keys are reused as they match. Built here: the update_id index (no longer unique:
-- a unique index of a partitioned table must hold id) and the primary key of message_provider_ids,
-- which takes over the uniqueness of (wa_number_id, provider_message_id), filled from today's rows.
-- The current and the next month get partitions here; the chore makes the following ones.
-- Run it with the app stopped: it holds messages locked throughout, and the triggers of
-- db/functions are re-created on the new table only by the db:migrate that follows it.

-- Per partition, its id range and conservative bounds of its rows' created_at (db/schema/
-- message-partition-bounds.ts), so that a history window prunes partitions of ids. Filled below
-- as the partitions are made; kept by db/functions/message_partition_bounds.sql from then on.
CREATE TABLE "message_partition_bounds" (
	"partition" text PRIMARY KEY NOT NULL,
	"lo" bigint NOT NULL,
	"hi" bigint NOT NULL,
	"min_created_at" timestamp with time zone,
	"max_created_at" timestamp with time zone
);--> statement-breakpoint
-- The wamid's owner, filled before its key is built (one sorted build instead of 5 M inserts
-- into a growing index). The keys of messages are unique per number today, so no row conflicts.
CREATE TABLE "message_provider_ids" (
	"wa_number_id" integer NOT NULL,
	"provider_message_id" text NOT NULL,
	"team_id" integer NOT NULL,
	"message_id" integer NOT NULL
);--> statement-breakpoint
INSERT INTO "message_provider_ids" ("wa_number_id", "provider_message_id", "team_id", "message_id")
  SELECT "wa_number_id", "provider_message_id", "team_id", "id" FROM "messages" WHERE "provider_message_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "message_provider_ids" ADD CONSTRAINT "message_provider_ids_pkey" PRIMARY KEY ("wa_number_id", "provider_message_id");--> statement-breakpoint
CREATE INDEX "message_provider_ids_message_idx" ON "message_provider_ids" USING btree ("message_id");--> statement-breakpoint
DROP INDEX "messages_update_id_uq";--> statement-breakpoint
DROP INDEX "messages_provider_id_uq";--> statement-breakpoint
-- References to the old table would keep pointing at it alone (the partition): they are made
-- again below against the partitioned table.
ALTER TABLE "message_status_history" DROP CONSTRAINT "message_status_history_message_fk";--> statement-breakpoint
ALTER TABLE "read_receipts" DROP CONSTRAINT "read_receipts_message_fk";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_message_fk";--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_reply_to_fk";--> statement-breakpoint
ALTER TABLE "messages" RENAME TO "messages_legacy";--> statement-breakpoint
ALTER SEQUENCE "messages_id_seq" OWNED BY NONE;--> statement-breakpoint
ALTER TABLE "messages_legacy" RENAME CONSTRAINT "messages_pkey" TO "messages_legacy_pkey";--> statement-breakpoint
ALTER STATISTICS "messages_conversation_stats" RENAME TO "messages_legacy_conversation_stats";--> statement-breakpoint
CREATE TABLE "messages" (LIKE "messages_legacy" INCLUDING DEFAULTS) PARTITION BY RANGE ("id");--> statement-breakpoint
ALTER SEQUENCE "messages_id_seq" OWNED BY "messages"."id";--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_pkey" PRIMARY KEY ("id", "team_id");--> statement-breakpoint
CREATE STATISTICS "messages_conversation_stats" (dependencies, mcv) ON "team_id", "wa_number_id", "contact_id" FROM "messages";--> statement-breakpoint
-- The same indexes and foreign keys as the old table's, under their names; the old table's are
-- renamed messages_legacy_… and attach to them. Its triggers are dropped: a partition may not
-- have the transition-table triggers of db/functions, which are made again on the partitioned
-- table (the functions set is re-applied after the migrations: its record is cleared here).
DO $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT c.relname AS name, pg_get_indexdef(i.indexrelid) AS def
    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
    WHERE i.indrelid = 'messages_legacy'::regclass AND NOT i.indisprimary
  LOOP
    EXECUTE format('ALTER INDEX %I RENAME TO %I', r.name, 'messages_legacy' || substr(r.name, length('messages') + 1));
    EXECUTE regexp_replace(r.def, ' ON (public\.)?messages_legacy ', ' ON messages ');
  END LOOP;
  FOR r IN SELECT conname, pg_get_constraintdef(oid) AS def FROM pg_constraint
    WHERE conrelid = 'messages_legacy'::regclass AND contype = 'f'
  LOOP
    EXECUTE format('ALTER TABLE messages ADD CONSTRAINT %I %s', r.conname, r.def);
  END LOOP;
  FOR r IN SELECT tgname FROM pg_trigger WHERE tgrelid = 'messages_legacy'::regclass AND NOT tgisinternal LOOP
    EXECUTE format('DROP TRIGGER %I ON messages_legacy', r.tgname);
  END LOOP;
END $$;--> statement-breakpoint
CREATE INDEX "messages_update_id_idx" ON "messages" USING btree ("update_id");--> statement-breakpoint
DELETE FROM "db_functions_applied";--> statement-breakpoint
-- The old table takes every id below the next one the sequence gives (or above the highest
-- id, if rows were written with ids of their own); the current month starts there and the next
-- one after it, and the tail (messages_tail) takes every id above them up to MAXVALUE, so an insert
-- never lacks a partition without a DEFAULT one (which would keep history pages from an ordered
-- Append: db/functions/messages_partitions.sql), each with room for max(1,000,000, 3 × the average ids of a month so far) ids
-- (the chore sizes the following months from what they used: lib/messages/partitions.ts).
DO $$
DECLARE
  next_id bigint;
  first_id bigint;
  first_at timestamptz;
  months numeric;
  cap bigint;
  month timestamptz := date_trunc('month', now(), 'UTC');
  r record;
BEGIN
  SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END INTO next_id FROM messages_id_seq;
  SELECT greatest(next_id, coalesce((SELECT id + 1 FROM messages_legacy ORDER BY id DESC LIMIT 1), 1)) INTO next_id;
  SELECT id, created_at INTO first_id, first_at FROM messages_legacy ORDER BY id LIMIT 1;
  months := greatest(1, extract(epoch FROM now() - coalesce(first_at, now())) / (30 * 86400));
  cap := greatest(1000000, ceil(3 * (next_id - coalesce(first_id, next_id)) / months));
  EXECUTE format('ALTER TABLE messages ATTACH PARTITION messages_legacy FOR VALUES FROM (MINVALUE) TO (%s)', next_id);
  FOR i IN 0..1 LOOP
    EXECUTE format('CREATE TABLE %I (LIKE messages INCLUDING DEFAULTS INCLUDING STATISTICS)',
      'messages_p' || to_char((month + make_interval(months => i)) AT TIME ZONE 'UTC', 'YYYYMM'));
    EXECUTE format('ALTER TABLE messages ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)',
      'messages_p' || to_char((month + make_interval(months => i)) AT TIME ZONE 'UTC', 'YYYYMM'), next_id + i * cap, next_id + (i + 1) * cap);
  END LOOP;
  CREATE TABLE messages_tail (LIKE messages INCLUDING DEFAULTS INCLUDING STATISTICS);
  EXECUTE format('ALTER TABLE messages ATTACH PARTITION messages_tail FOR VALUES FROM (%s) TO (MAXVALUE)', next_id + 2 * cap);
  PERFORM setval('messages_id_seq', next_id, false);
  -- The old table's created_at bounds, read from its rows (one scan: created_at leads no index),
  -- rounded out to whole UTC days as the trigger rounds them; the new partitions are empty.
  INSERT INTO message_partition_bounds (partition, lo, hi, min_created_at, max_created_at)
    SELECT 'messages_legacy', -2147483648, next_id,
      date_trunc('day', min(created_at), 'UTC'), date_trunc('day', max(created_at), 'UTC') + interval '24 hours'
    FROM messages_legacy;
  FOR i IN 0..1 LOOP
    INSERT INTO message_partition_bounds (partition, lo, hi)
    VALUES ('messages_p' || to_char((month + make_interval(months => i)) AT TIME ZONE 'UTC', 'YYYYMM'), next_id + i * cap, next_id + (i + 1) * cap);
  END LOOP;
  INSERT INTO message_partition_bounds (partition, lo, hi) VALUES ('messages_tail', next_id + 2 * cap, 2147483648);
  -- Their indexes and the tail's named after messages' (as db/functions/messages_partitions.sql
  -- names them), so a plan says which index it used.
  FOR r IN SELECT child.relname AS name, part.relname AS part, parent.relname AS parent_name
    FROM pg_inherits p JOIN pg_class part ON part.oid = p.inhrelid
    JOIN pg_index i ON i.indrelid = part.oid AND NOT i.indisprimary JOIN pg_class child ON child.oid = i.indexrelid
    JOIN pg_inherits h ON h.inhrelid = i.indexrelid JOIN pg_class parent ON parent.oid = h.inhparent
    WHERE p.inhparent = 'messages'::regclass AND (part.relname LIKE 'messages\_p%' OR part.relname = 'messages_tail')
  LOOP
    CONTINUE WHEN r.name = r.part || substr(r.parent_name, length('messages') + 1);
    EXECUTE format('ALTER INDEX %I RENAME TO %I', r.name, r.part || substr(r.parent_name, length('messages') + 1));
  END LOOP;
END $$;--> statement-breakpoint
-- A reply's reference to the message it quotes: checked again here over the old table's replies
-- (a partitioned table's own foreign key cannot be NOT VALID).
ALTER TABLE "messages" ADD CONSTRAINT "messages_reply_to_fk" FOREIGN KEY ("reply_to_message_id", "team_id") REFERENCES "messages"("id", "team_id");--> statement-breakpoint
-- The other references were checked against every row when they were first made, and the backfill
-- above took its rows from messages itself; the rows are the same, now in a partition. NOT VALID
-- spares four scans under the migration's locks; every new row is checked, and `ALTER TABLE …
-- VALIDATE CONSTRAINT` may be run later without blocking writes (docs/write-path.md).
ALTER TABLE "message_status_history" ADD CONSTRAINT "message_status_history_message_fk" FOREIGN KEY ("message_id", "team_id") REFERENCES "messages"("id", "team_id") ON DELETE CASCADE NOT VALID;--> statement-breakpoint
ALTER TABLE "read_receipts" ADD CONSTRAINT "read_receipts_message_fk" FOREIGN KEY ("message_id", "team_id") REFERENCES "messages"("id", "team_id") ON DELETE CASCADE NOT VALID;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_message_fk" FOREIGN KEY ("message_id", "team_id") REFERENCES "messages"("id", "team_id") ON DELETE CASCADE NOT VALID;--> statement-breakpoint
-- Deferred to commit: the inbound webhook claims a wamid before it inserts the message that holds it
-- (lib/meta-webhooks/inbound-repo.ts), in the same transaction.
ALTER TABLE "message_provider_ids" ADD CONSTRAINT "message_provider_ids_message_fk" FOREIGN KEY ("message_id", "team_id") REFERENCES "messages"("id", "team_id") ON DELETE CASCADE DEFERRABLE INITIALLY DEFERRED NOT VALID;
