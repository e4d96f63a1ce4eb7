-- The monthly partitions of `messages` by RANGE (id) (migration 0037, lib/messages/partitions.ts,
-- docs/write-path.md, "Messages are partitioned by month of ids"). Both functions are called by the messages
-- chore of every process, under a try-lock and a short lock_timeout, as the event log's are:
-- attaching and detaching lock the table for a moment, and must give way to writers, not queue them.
-- "Now" is a parameter, so tests can pin a month boundary.

-- A partition's id range: [lo, hi), lo null for the one from before partitioning (FROM MINVALUE).
-- The tail (messages_tail, FROM the highest month's hi TO MAXVALUE) is not listed.
CREATE OR REPLACE FUNCTION messages_partition_ranges()
RETURNS TABLE (name text, lo bigint, hi bigint) LANGUAGE sql STABLE AS $$
  SELECT c.relname::text,
    nullif(substring(b.bound FROM 'FROM \(([^)]+)\)'), 'MINVALUE')::bigint,
    substring(b.bound FROM 'TO \(([^)]+)\)')::bigint
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  CROSS JOIN LATERAL (SELECT pg_get_expr(c.relpartbound, c.oid) AS bound) b
  WHERE i.inhparent = 'messages'::regclass AND b.bound NOT LIKE '%TO (MAXVALUE)'
$$;

-- The id the sequence gives next.
CREATE OR REPLACE FUNCTION messages_next_id() RETURNS bigint LANGUAGE sql VOLATILE AS $$
  SELECT CASE WHEN is_called THEN last_value + 1 ELSE last_value END FROM messages_id_seq
$$;

-- The indexes a partition got from messages' are named after them (messages_p202611_history_idx for
-- messages_history_idx), so a plan says which index it used, not a name PostgreSQL made up.
CREATE OR REPLACE FUNCTION messages_name_partition_indexes(part text) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  FOR r IN SELECT child.relname AS name, parent.relname AS parent_name
    FROM pg_index i JOIN pg_class child ON child.oid = i.indexrelid
    JOIN pg_inherits h ON h.inhrelid = i.indexrelid JOIN pg_class parent ON parent.oid = h.inhparent
    WHERE i.indrelid = part::regclass AND NOT i.indisprimary
  LOOP
    CONTINUE WHEN r.name = part || substr(r.parent_name, length('messages') + 1);
    EXECUTE format('ALTER INDEX %I RENAME TO %I', r.name, part || substr(r.parent_name, length('messages') + 1));
  END LOOP;
END $$;

-- The tail, made (again) above `lo`, its indexes named after messages'.
CREATE OR REPLACE FUNCTION messages_make_tail(lo bigint) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'CREATE TABLE messages_tail (LIKE messages INCLUDING DEFAULTS INCLUDING STATISTICS)';
  EXECUTE format('ALTER TABLE messages ATTACH PARTITION messages_tail FOR VALUES FROM (%s) TO (MAXVALUE)', lo);
  PERFORM messages_name_partition_indexes('messages_tail');
END $$;

-- Makes sure the month of `at` (UTC) and the next one have partitions, that at least one partition
-- above the sequence's next id is still unused, and that the month of `at` draws its ids from its
-- own partition: once that month has begun, the sequence jumps to its lower bound (only forward).
-- Each new partition goes on top of the highest bound, with room for
--   max(min_capacity, 2 × the ids used by the busiest of the last four partitions)
-- ids. The ids a month leaves unused when the next one jumps are lost, so ids are drawn at most
-- twice as fast as messages are written: an int4 id lasts 2^31 / (2 × messages a month) months
-- (89 years at 1 M a month, 9 at 10 M). A month that outgrows its room simply goes on in the next
-- month's partition (its rows are then dropped with that month's), and a new one is made ahead.
-- Above the newest month, messages_tail takes every id up to MAXVALUE, so an insert never lacks a
-- partition, and the ranges cover every id without a DEFAULT partition (which would keep
-- PostgreSQL from an ordered Append: a history page's ORDER BY id DESC LIMIT then stops in the
-- newest partitions instead of merging all). A new month takes the tail's range: the tail, empty,
-- is detached and dropped, the month attached, and the tail made again above it, in the caller's
-- transaction. A tail that holds rows (ids outran every month made ahead) is left as it is and no
-- later month is made: tail_in_use says so (docs/write-path.md). A partition is made empty and then attached,
-- which takes a lighter lock than CREATE TABLE … PARTITION OF. Returns how many months it made.
-- The result type changed from integer (made) to (made, tail_in_use).
DROP FUNCTION IF EXISTS messages_ensure_partitions(timestamptz, bigint);
CREATE FUNCTION messages_ensure_partitions(at timestamptz, min_capacity bigint, OUT made integer, OUT tail_in_use boolean)
LANGUAGE plpgsql AS $$
DECLARE
  month_start timestamptz := date_trunc('month', at, 'UTC');
  target text;
  newest record;
  busiest bigint;
  used bigint;
  top bigint;
  cap bigint;
  r record;
BEGIN
  made := 0;
  EXECUTE 'SELECT EXISTS (SELECT 1 FROM messages_tail)' INTO tail_in_use;
  FOR step IN 1..6 LOOP
    SELECT * INTO newest FROM messages_partition_ranges() ORDER BY hi DESC LIMIT 1;
    IF to_regclass('messages_p' || to_char(month_start AT TIME ZONE 'UTC', 'YYYYMM')) IS NULL THEN
      target := 'messages_p' || to_char(month_start AT TIME ZONE 'UTC', 'YYYYMM');
    ELSIF to_regclass('messages_p' || to_char((month_start + interval '1 month') AT TIME ZONE 'UTC', 'YYYYMM')) IS NULL THEN
      target := 'messages_p' || to_char((month_start + interval '1 month') AT TIME ZONE 'UTC', 'YYYYMM');
    ELSIF messages_next_id() > newest.lo THEN
      -- The newest has started to fill: the month after it.
      target := 'messages_p' || to_char(to_date(substr(newest.name, 11), 'YYYYMM') + interval '1 month', 'YYYYMM');
    ELSE
      EXIT;
    END IF;
    -- A month already behind a later one (a clock set back) is not made.
    EXIT WHEN EXISTS (SELECT 1 FROM messages_partition_ranges() WHERE name LIKE 'messages_p%' AND name > target);
    busiest := 0;
    FOR r IN SELECT * FROM messages_partition_ranges() WHERE lo IS NOT NULL ORDER BY lo DESC LIMIT 4 LOOP
      EXECUTE format('SELECT max(id) FROM %I', r.name) INTO used;
      busiest := greatest(busiest, coalesce(used - r.lo + 1, 0));
    END LOOP;
    cap := greatest(min_capacity, 2 * busiest);
    -- The new month takes the tail's range: only while the tail is empty (a partition that rows
    -- reference cannot be detached, and rows may not move out of it).
    EXIT WHEN tail_in_use;
    top := newest.hi;
    EXECUTE 'ALTER TABLE messages DETACH PARTITION messages_tail';
    -- Looked at again under the detach's lock: a row may have landed since the look above.
    EXECUTE 'SELECT EXISTS (SELECT 1 FROM messages_tail)' INTO tail_in_use;
    IF tail_in_use THEN
      EXECUTE format('ALTER TABLE messages ATTACH PARTITION messages_tail FOR VALUES FROM (%s) TO (MAXVALUE)', top);
      EXIT;
    END IF;
    EXECUTE 'DROP TABLE messages_tail';
    EXECUTE format('CREATE TABLE %I (LIKE messages INCLUDING DEFAULTS INCLUDING STATISTICS)', target);
    EXECUTE format('ALTER TABLE messages ATTACH PARTITION %I FOR VALUES FROM (%s) TO (%s)', target, top, top + cap);
    PERFORM messages_name_partition_indexes(target);
    PERFORM messages_make_tail(top + cap);
    made := made + 1;
  END LOOP;
  -- The made partitions' (empty) bounds, the dropped tail's gone (message_partition_bounds.sql).
  PERFORM messages_partition_bounds_sync();
  -- The month has begun: its ids from its own partition.
  SELECT * INTO r FROM messages_partition_ranges() WHERE name = 'messages_p' || to_char(month_start AT TIME ZONE 'UTC', 'YYYYMM');
  IF r.lo IS NOT NULL AND messages_next_id() < r.lo THEN
    PERFORM setval('messages_id_seq', r.lo, false);
  END IF;
END $$;

-- Drops the partitions whose whole month is past the retention: a month whose end is at or before
-- `at`'s month minus `retention_months`, whose range the sequence has left, and whose newest row
-- (the highest id) was written before that cutoff too (the sequence jumps to a month's partition
-- only when the chore first runs in it). The partition from before partitioning (messages_legacy)
-- goes by its newest row alone; the tail never (messages_partition_ranges does not list it). The
-- rows that reference a dropped message go first (a partition referenced by a foreign key cannot be detached): its statuses,
-- read receipts, outgoing webhooks and provider id; newer replies to it keep the reply but lose
-- the reference; a conversation whose last message it held is removed. Dropping fires no row trigger: the rollups (message_stats, conversation_days,
-- reports) keep counting the dropped months. Returns how many it dropped.
CREATE OR REPLACE FUNCTION messages_drop_partitions(at timestamptz, retention_months integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  cutoff timestamptz := date_trunc('month', at, 'UTC') - make_interval(months => retention_months);
  p record;
  newest_at timestamptz;
  lo bigint;
  dropped integer := 0;
BEGIN
  FOR p IN SELECT * FROM messages_partition_ranges() ORDER BY hi LOOP
    EXIT WHEN p.hi > messages_next_id();
    IF p.name ~ '^messages_p[0-9]{6}$' THEN
      EXIT WHEN (to_date(substr(p.name, 11), 'YYYYMM') + interval '1 month') AT TIME ZONE 'UTC' > cutoff;
    END IF;
    EXECUTE format('SELECT created_at FROM %I ORDER BY id DESC LIMIT 1', p.name) INTO newest_at;
    EXIT WHEN newest_at >= cutoff;
    lo := coalesce(p.lo, -2147483648);
    DELETE FROM message_status_history WHERE message_id >= lo AND message_id < p.hi;
    DELETE FROM read_receipts WHERE message_id >= lo AND message_id < p.hi;
    DELETE FROM webhook_deliveries WHERE message_id >= lo AND message_id < p.hi;
    DELETE FROM message_provider_ids WHERE message_id >= lo AND message_id < p.hi;
    UPDATE messages SET reply_to_message_id = NULL
      WHERE id >= p.hi AND reply_to_message_id >= lo AND reply_to_message_id < p.hi;
    -- A conversation whose last (newest) message goes has no message left: its derived row goes too
    -- (the next message makes it again; its notes are keyed apart and stay).
    DELETE FROM conversations WHERE last_message_id >= lo AND last_message_id < p.hi;
    EXECUTE format('ALTER TABLE messages DETACH PARTITION %I', p.name);
    EXECUTE format('DROP TABLE %I', p.name);
    DELETE FROM message_partition_bounds WHERE partition = p.name;
    dropped := dropped + 1;
  END LOOP;
  RETURN dropped;
END $$;
