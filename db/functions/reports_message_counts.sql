-- Messages in and out per (team, UTC day, number, contact, agent, direction) for the reports
-- (docs/features/reports.md), counted on INSERT and DELETE (cascades included). As in conversation_days.sql the
-- key is one customer's day, so only writers of the same customer on the same day ever share a
-- row (not a hot row: docs/write-path.md), and rows are upserted in key order so that two bulk
-- inserts lock shared keys in the same order (no deadlock). Nothing changes on UPDATE: team,
-- number, contact and created_at cannot change (messages_conversation_keys_immutable.sql), and
-- neither direction nor agent_id is updated by the service. agent_id is the sending agent (0: the
-- API, a bot, or the customer). A key counted down to 0 is kept at 0 (reads sum it away).
-- The same counts without the contact (report_message_days, for reports not filtered by label)
-- are shared by every writer of a team's day: they go in as append-only signed deltas to
-- report_message_deltas instead, folded by lib/reports/repo.ts (docs/write-path.md, "No hot rows").
CREATE OR REPLACE FUNCTION reports_message_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_message_counts AS r (team_id, day, wa_number_id, contact_id, agent_id, direction, messages)
    SELECT team_id, (created_at AT TIME ZONE 'UTC')::date, wa_number_id, contact_id,
      CASE WHEN direction = 'OUTBOUND' THEN agent_id ELSE 0 END, direction, count(*)
    FROM added GROUP BY 1, 2, 3, 4, 5, 6 ORDER BY 1, 2, 3, 4, 5, 6
    ON CONFLICT (team_id, day, wa_number_id, contact_id, agent_id, direction) DO UPDATE SET messages = r.messages + EXCLUDED.messages;
    INSERT INTO report_message_deltas (team_id, day, wa_number_id, agent_id, direction, messages)
    SELECT team_id, (created_at AT TIME ZONE 'UTC')::date, wa_number_id, CASE WHEN direction = 'OUTBOUND' THEN agent_id ELSE 0 END,
      direction, count(*)
    FROM added GROUP BY 1, 2, 3, 4, 5;
  ELSE
    UPDATE report_message_counts r SET messages = r.messages - gone.n
    FROM (SELECT team_id, (created_at AT TIME ZONE 'UTC')::date AS day, wa_number_id, contact_id,
            CASE WHEN direction = 'OUTBOUND' THEN agent_id ELSE 0 END AS agent_id, direction, count(*) AS n
          FROM removed GROUP BY 1, 2, 3, 4, 5, 6) gone
    WHERE r.team_id = gone.team_id AND r.day = gone.day AND r.wa_number_id = gone.wa_number_id AND r.contact_id = gone.contact_id
      AND r.agent_id = gone.agent_id AND r.direction = gone.direction;
    INSERT INTO report_message_deltas (team_id, day, wa_number_id, agent_id, direction, messages)
    SELECT team_id, (created_at AT TIME ZONE 'UTC')::date, wa_number_id, CASE WHEN direction = 'OUTBOUND' THEN agent_id ELSE 0 END,
      direction, -count(*)
    FROM removed GROUP BY 1, 2, 3, 4, 5;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER messages_insert_5_report_counts AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION reports_message_counts();

CREATE OR REPLACE TRIGGER messages_delete_2_report_counts AFTER DELETE ON messages
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION reports_message_counts();
