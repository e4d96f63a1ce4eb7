-- Messages in and out per (team, UTC day, number, contact, agent, direction) for the reports
-- (issue 21), as append-only signed deltas: +n per key for an INSERT statement, -n for a DELETE
-- (cascades included), summed on read. One row per statement and key, never an update of a shared
-- row (DESIGN section 13, "no hot rows"). Nothing here changes on UPDATE: team, number, contact and
-- created_at cannot change (messages_conversation_keys_immutable.sql), and neither direction nor
-- agent_id is ever updated by the service. agent_id is the sending agent (0: API, bot, customer).
CREATE OR REPLACE FUNCTION reports_message_counts() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO report_message_counts (team_id, day, wa_number_id, contact_id, agent_id, direction, messages)
    SELECT team_id, (created_at AT TIME ZONE 'UTC')::date, wa_number_id, contact_id,
      CASE WHEN direction = 'OUTBOUND' THEN agent_id ELSE 0 END, direction, count(*)
    FROM added GROUP BY 1, 2, 3, 4, 5, 6;
  ELSE
    INSERT INTO report_message_counts (team_id, day, wa_number_id, contact_id, agent_id, direction, messages)
    SELECT team_id, (created_at AT TIME ZONE 'UTC')::date, wa_number_id, contact_id,
      CASE WHEN direction = 'OUTBOUND' THEN agent_id ELSE 0 END, direction, -count(*)
    FROM removed GROUP BY 1, 2, 3, 4, 5, 6;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER messages_report_counts_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION reports_message_counts();

CREATE OR REPLACE TRIGGER messages_report_counts_delete AFTER DELETE ON messages
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION reports_message_counts();
