-- What an UPDATE of a message sets off, row by row, only when it changes something it concerns
-- (claims, leases and retries change neither and pay nothing):
-- 1. a status change is announced on the event log as `message.status` (with the provider's
--    error when it failed), in the updating transaction: the streams see it once it commits;
-- 2. an OUTBOUND message whose message_stats key changed (status, error, template, group)
--    moves one count from its old key to its new one, as two append-only deltas
--    (message_stats_count.sql says why nothing is updated in place).
-- Team, number, contact and created_at cannot change (messages_conversation_keys_immutable.sql).
-- The common case (an OUTBOUND message's status moves) is one statement: each statement a
-- PL/pgSQL function runs pays an executor start-up, a large part of a status write's price.
CREATE OR REPLACE FUNCTION messages_status_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status IS DISTINCT FROM NEW.status AND OLD.direction = 'OUTBOUND' AND NEW.direction = 'OUTBOUND' THEN
    WITH announced AS (
      INSERT INTO events (team_id, type, wa_number_id, contact_id, data)
      VALUES (NEW.team_id, 'message.status', NEW.wa_number_id, NEW.contact_id,
        jsonb_build_object('id', NEW.id, 'update_id', NEW.update_id, 'status', NEW.status, 'error', NEW.error))
    )
    INSERT INTO message_stats_deltas (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
    VALUES
      (OLD.team_id, (OLD.created_at AT TIME ZONE 'UTC')::date, OLD.wa_number_id, coalesce(OLD.template_name, ''),
        coalesce(OLD.sent_group, ''), OLD.status, message_stats_error_code(OLD.status, OLD.error),
        message_stats_error_title(OLD.status, OLD.error), -1),
      (NEW.team_id, (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.wa_number_id, coalesce(NEW.template_name, ''),
        coalesce(NEW.sent_group, ''), NEW.status, message_stats_error_code(NEW.status, NEW.error),
        message_stats_error_title(NEW.status, NEW.error), 1);
    RETURN NULL;
  END IF;
  -- Anything else (a change of error, template or group, or of direction): the general form.
  IF OLD.status IS DISTINCT FROM NEW.status THEN
    INSERT INTO events (team_id, type, wa_number_id, contact_id, data)
    VALUES (NEW.team_id, 'message.status', NEW.wa_number_id, NEW.contact_id,
      jsonb_build_object('id', NEW.id, 'update_id', NEW.update_id, 'status', NEW.status, 'error', NEW.error));
  END IF;
  IF OLD.direction = 'OUTBOUND' OR NEW.direction = 'OUTBOUND' THEN
    INSERT INTO message_stats_deltas
    SELECT (d).* FROM (
      SELECT message_stats_delta(-1, OLD.team_id, OLD.created_at, OLD.wa_number_id, OLD.template_name, OLD.sent_group, OLD.status, OLD.error) AS d
      WHERE OLD.direction = 'OUTBOUND'
      UNION ALL
      SELECT message_stats_delta(1, NEW.team_id, NEW.created_at, NEW.wa_number_id, NEW.template_name, NEW.sent_group, NEW.status, NEW.error)
      WHERE NEW.direction = 'OUTBOUND') k;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER messages_status_changed AFTER UPDATE OF status, error, template_name, sent_group, direction ON messages
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status
    OR message_stats_error_code(OLD.status, OLD.error) IS DISTINCT FROM message_stats_error_code(NEW.status, NEW.error)
    OR message_stats_error_title(OLD.status, OLD.error) IS DISTINCT FROM message_stats_error_title(NEW.status, NEW.error)
    OR OLD.template_name IS DISTINCT FROM NEW.template_name OR OLD.sent_group IS DISTINCT FROM NEW.sent_group
    OR OLD.direction IS DISTINCT FROM NEW.direction)
  EXECUTE FUNCTION messages_status_changed();
