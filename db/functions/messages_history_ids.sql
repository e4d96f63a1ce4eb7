-- The history pages' id ranges (lib/messages/history-bounds.ts, lib/messages/history-repo.ts,
-- docs/write-path.md, "History pages prune by id").

-- The history page's check that the id range it was given covers its window (lib/messages/
-- history-repo.ts): no partition whose bounds meet [from_at, to_at) (to_at null: no end) holds
-- ids outside [lo, hi]. Read in the page's own statement, so in the snapshot its rows come from:
-- a range computed from bounds a process had cached and that have widened since raises
-- (SQLSTATE MH001), and the page is asked again with fresh bounds. Never a page short of a row.
CREATE OR REPLACE FUNCTION messages_history_ids_cover(from_at timestamptz, to_at timestamptz, ids_lo integer, ids_hi integer)
RETURNS boolean LANGUAGE plpgsql STABLE AS $$
BEGIN
  IF EXISTS (SELECT 1 FROM message_partition_bounds b
    WHERE b.min_created_at < coalesce(to_at, 'infinity') AND b.max_created_at >= from_at
      AND (b.lo < ids_lo OR b.hi - 1 > ids_hi)) THEN
    RAISE EXCEPTION 'history id range [%, %] does not cover messages from % to %', ids_lo, ids_hi, from_at, to_at
      USING ERRCODE = 'MH001';
  END IF;
  RETURN true;
END $$;

-- An id bound as the executor sees it when a statement starts, not when it is planned: STABLE, in
-- PL/pgSQL so that it is not inlined. A named statement's custom plans (its values as constants)
-- prune when planned, so their estimated cost is a fraction of the generic plan's (which holds every
-- partition: PostgreSQL does not count pruning at start-up in a plan's cost), and PostgreSQL then
-- plans every execution anew (1 ms a page on the bench's 16 partitions) instead of keeping the
-- generic plan (0.4 ms a page, pruned as it starts). Through this function both plans hold every
-- partition, the generic one is kept, and it still prunes as it starts ("Subplans Removed").
-- Unnamed statements (a transaction pooler) are planned every time anyway: they take the bound
-- as it is, and prune when planned.
CREATE OR REPLACE FUNCTION messages_history_id(id integer) RETURNS integer LANGUAGE plpgsql STABLE AS $$
BEGIN
  RETURN id;
END $$;
