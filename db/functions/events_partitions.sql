-- The event log's daily partitions (migration 0032, lib/events/prune.ts). Both functions are
-- called by the events chore of every process, under a try-lock and a short lock_timeout: attaching
-- and dropping a partition lock the log for a moment, and must give way to writers, not queue them.

-- Creates the partitions of today and of the next `days_ahead` days (UTC) that do not exist yet.
-- A partition is made empty and then attached: attaching takes a lighter lock on the log than
-- CREATE TABLE … PARTITION OF. A day already covered (the legacy partition) or whose rows already
-- sit in the default partition (no process ran for days) is left as it is. Returns how many it made.
CREATE OR REPLACE FUNCTION events_ensure_partitions(days_ahead integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  day timestamptz;
  part text;
  made integer := 0;
BEGIN
  FOR i IN 0..days_ahead LOOP
    day := date_trunc('day', now(), 'UTC') + make_interval(days => i);
    part := 'events_p' || to_char(day AT TIME ZONE 'UTC', 'YYYYMMDD');
    CONTINUE WHEN to_regclass(part) IS NOT NULL;
    BEGIN
      EXECUTE format('CREATE TABLE %I (LIKE events INCLUDING DEFAULTS)', part);
      EXECUTE format('ALTER TABLE events ATTACH PARTITION %I FOR VALUES FROM (%L) TO (%L)', part, day, day + interval '1 day');
      made := made + 1;
    EXCEPTION
      -- 42P17: overlaps an existing partition; 23514: the default partition holds rows of that day.
      WHEN invalid_object_definition OR check_violation THEN NULL;
    END;
  END LOOP;
  RETURN made;
END $$;

-- Drops the partitions whose every row is older than `before` (their upper bound is at or before
-- it), the default partition never. Returns how many it dropped.
CREATE OR REPLACE FUNCTION events_drop_partitions(before timestamptz) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  p record;
  upper_bound timestamptz;
  dropped integer := 0;
BEGIN
  FOR p IN
    SELECT c.oid::regclass AS part, pg_get_expr(c.relpartbound, c.oid) AS bound
    FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
    WHERE i.inhparent = 'events'::regclass
  LOOP
    CONTINUE WHEN p.bound = 'DEFAULT';
    upper_bound := substring(p.bound FROM 'TO \(''([^'']+)''\)')::timestamptz;
    IF upper_bound <= before THEN
      EXECUTE format('DROP TABLE %s', p.part);
      dropped := dropped + 1;
    END IF;
  END LOOP;
  RETURN dropped;
END $$;
