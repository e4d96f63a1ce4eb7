-- Keeps message_partition_bounds (db/schema/message-partition-bounds.ts): per partition of messages,
-- its id range and bounds of its rows' created_at, which a history page turns into an id range so
-- the planner prunes partitions of ids (lib/messages/history-bounds.ts, docs/write-path.md, "History pages prune
-- by id"). The bounds must hold for every row, whatever wrote it: they are widened in the writer's
-- own transaction, so a reader that sees a row also sees bounds that cover it (one snapshot), and
-- they never narrow. A created_at that does not follow the id (clock skew, an import, hand-written
-- SQL, a transaction that began before the sequence moved to a new month) widens the bounds of the
-- partition it landed in. Widening is rounded out to whole UTC days: the partition being written
-- gets one update a day, not one per insert, so writers do not queue on its row.

-- Every partition of messages with its id range, MINVALUE and MAXVALUE as -2^31 and 2^31.
CREATE OR REPLACE FUNCTION messages_partitions_all()
RETURNS TABLE (name text, lo bigint, hi bigint) LANGUAGE sql STABLE AS $$
  SELECT c.relname::text,
    coalesce(nullif(substring(b.bound FROM 'FROM \(([^)]+)\)'), 'MINVALUE')::bigint, -2147483648),
    coalesce(nullif(substring(b.bound FROM 'TO \(([^)]+)\)'), 'MAXVALUE')::bigint, 2147483648)
  FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
  CROSS JOIN LATERAL (SELECT pg_get_expr(c.relpartbound, c.oid) AS bound) b
  WHERE i.inhparent = 'messages'::regclass
$$;

-- Gives every partition without a bounds row one, read from its rows (a scan of that partition: a
-- new one is empty; only a partition made by hand or a load with triggers off costs more), and
-- removes the rows of partitions that are gone. An upsert that widens: two writers that both found
-- a partition without a row both end up covered. The chore runs it after making partitions;
-- the insert trigger, when a row landed where no bounds row covers it.
CREATE OR REPLACE FUNCTION messages_partition_bounds_sync() RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  p record;
  lo_at timestamptz;
  hi_at timestamptz;
BEGIN
  DELETE FROM message_partition_bounds b WHERE NOT EXISTS (SELECT 1 FROM messages_partitions_all() a WHERE a.name = b.partition);
  FOR p IN SELECT a.* FROM messages_partitions_all() a
    WHERE NOT EXISTS (SELECT 1 FROM message_partition_bounds b WHERE b.partition = a.name AND b.lo = a.lo AND b.hi = a.hi)
  LOOP
    EXECUTE format('SELECT min(created_at), max(created_at) FROM %I', p.name) INTO lo_at, hi_at;
    INSERT INTO message_partition_bounds AS b (partition, lo, hi, min_created_at, max_created_at)
    VALUES (p.name, p.lo, p.hi, date_trunc('day', lo_at, 'UTC'), date_trunc('day', hi_at, 'UTC') + interval '24 hours')
    ON CONFLICT (partition) DO UPDATE SET lo = EXCLUDED.lo, hi = EXCLUDED.hi,
      min_created_at = least(b.min_created_at, EXCLUDED.min_created_at),
      max_created_at = greatest(b.max_created_at, EXCLUDED.max_created_at);
  END LOOP;
END $$;

-- After an insert into messages, once per statement (a bulk send's thousand rows are one update
-- here): each partition the rows landed in is widened to cover them, only when they fall outside
-- what it holds. The day rounding uses 24 hours, not '1 day', which a session time zone with
-- daylight saving would make 23 hours.
CREATE OR REPLACE FUNCTION message_partition_bounds_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  uncovered boolean;
BEGIN
  WITH n AS (
    SELECT b.partition, min(a.created_at) AS lo_at, max(a.created_at) AS hi_at
    FROM added a LEFT JOIN message_partition_bounds b ON a.id >= b.lo AND a.id < b.hi
    GROUP BY b.partition
  ), widened AS (
    UPDATE message_partition_bounds b
    SET min_created_at = least(b.min_created_at, date_trunc('day', n.lo_at, 'UTC')),
      max_created_at = greatest(b.max_created_at, date_trunc('day', n.hi_at, 'UTC') + interval '24 hours')
    FROM n
    WHERE b.partition = n.partition
      AND (b.min_created_at IS NULL OR b.min_created_at > n.lo_at OR b.max_created_at < n.hi_at)
  )
  SELECT EXISTS (SELECT 1 FROM n WHERE n.partition IS NULL) INTO uncovered;
  IF uncovered THEN
    -- A partition without its row (made by hand): read from its rows, this statement's included.
    PERFORM messages_partition_bounds_sync();
  END IF;
  RETURN NULL;
END $$;

-- A change of created_at or id (hand-written SQL; the app never changes them) widens the bounds of
-- the partition the row ends in. BEFORE, so it also runs when a new id moves the row to another
-- partition (PostgreSQL runs no AFTER UPDATE row trigger for such a move); the widening is part of
-- the same transaction, undone with it if the update fails.
CREATE OR REPLACE FUNCTION message_partition_bounds_before_update() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE message_partition_bounds b
  SET min_created_at = least(b.min_created_at, date_trunc('day', NEW.created_at, 'UTC')),
    max_created_at = greatest(b.max_created_at, date_trunc('day', NEW.created_at, 'UTC') + interval '24 hours')
  WHERE NEW.id >= b.lo AND NEW.id < b.hi
    AND (b.min_created_at IS NULL OR b.min_created_at > NEW.created_at OR b.max_created_at < NEW.created_at);
  IF NOT EXISTS (SELECT 1 FROM message_partition_bounds b WHERE NEW.id >= b.lo AND NEW.id < b.hi) THEN
    PERFORM messages_partition_bounds_sync();
    UPDATE message_partition_bounds b
    SET min_created_at = least(b.min_created_at, date_trunc('day', NEW.created_at, 'UTC')),
      max_created_at = greatest(b.max_created_at, date_trunc('day', NEW.created_at, 'UTC') + interval '24 hours')
    WHERE NEW.id >= b.lo AND NEW.id < b.hi;
  END IF;
  RETURN NEW;
END $$;

CREATE OR REPLACE TRIGGER messages_insert_4_partition_bounds AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_partition_bounds_after_insert();
CREATE OR REPLACE TRIGGER messages_update_2_partition_bounds BEFORE UPDATE OF id, created_at ON messages
  FOR EACH ROW WHEN (NEW.created_at IS DISTINCT FROM OLD.created_at OR NEW.id IS DISTINCT FROM OLD.id)
  EXECUTE FUNCTION message_partition_bounds_before_update();
