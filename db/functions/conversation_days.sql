-- Messages per conversation and UTC day, for the history's total_items (docs/history.md, "The
-- count's rollup"). Counted on INSERT and DELETE only: a message's conversation and day never
-- change (messages_conversation_keys_immutable.sql). The key is one conversation's day, so only
-- writers of the same customer on the same day ever share a row (not a hot row: docs/write-path.md).
-- Rows are added in key order so that two concurrent bulk inserts lock shared days in the same
-- order (no deadlock). Days are UTC dates; the history turns its window into UTC bounds.
CREATE OR REPLACE FUNCTION conversation_days_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO conversation_days AS d (team_id, wa_number_id, contact_id, day, messages)
  SELECT team_id, wa_number_id, contact_id, (created_at AT TIME ZONE 'UTC')::date, count(*)
  FROM added GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (team_id, wa_number_id, contact_id, day) DO UPDATE SET messages = d.messages + EXCLUDED.messages;
  RETURN NULL;
END $$;

-- The UPDATE returns the days it brought to 0 and the DELETE removes exactly those by primary key
-- (a join filtered on `messages <= 0` was misjudged by the planner and took minutes when one delete
-- emptied 90,000 days: migration 0022). The UPDATE holds their row locks until commit, so no
-- other transaction can have added to them meanwhile.
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

CREATE OR REPLACE TRIGGER messages_insert_3_conversation_days AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION conversation_days_add();

CREATE OR REPLACE TRIGGER messages_delete_1_conversation_days AFTER DELETE ON messages
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION conversation_days_remove();
