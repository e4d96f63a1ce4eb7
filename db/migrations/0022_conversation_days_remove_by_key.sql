-- conversation_days_remove (0007) deleted the days whose count fell to 0 with a join of the rollup
-- to the removed rows' keys, filtered on `messages <= 0`. The statistics say no day is ever at 0,
-- so the planner started from the rollup's few "zero" rows and scanned every key for each: when
-- a delete empties many days (181,000 messages over 90,000 days: the bench resetting its queue,
-- a broadcast's contacts or a team cascading away) that is 90,000 × 90,000 and ran for many
-- minutes instead of a second. Now the UPDATE returns the days it brought to 0 and the DELETE
-- removes exactly those by primary key, with no filter on the count for the planner to misjudge:
-- the UPDATE holds their row locks until commit, so no other transaction can have added to them.
CREATE OR REPLACE FUNCTION conversation_days_remove() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  emptied conversation_days[];
BEGIN
  WITH gone AS (
    SELECT team_id, wa_number_id, contact_id, (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n
    FROM removed GROUP BY 1, 2, 3, 4
  ), changed AS (
    UPDATE conversation_days d SET messages = d.messages - gone.n FROM gone
    WHERE d.team_id = gone.team_id AND d.wa_number_id = gone.wa_number_id AND d.contact_id = gone.contact_id AND d.day = gone.day
    RETURNING d.*
  )
  SELECT coalesce(array_agg(ROW(team_id, wa_number_id, contact_id, day, messages)::conversation_days
    ORDER BY team_id, wa_number_id, contact_id, day), '{}') INTO emptied
  FROM changed WHERE messages <= 0;
  DELETE FROM conversation_days d
  USING unnest(emptied) e
  WHERE d.team_id = e.team_id AND d.wa_number_id = e.wa_number_id AND d.contact_id = e.contact_id AND d.day = e.day;
  RETURN NULL;
END $$;
