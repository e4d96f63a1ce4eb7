-- What an UPDATE of a message sets off, row by row, only when it changes something it concerns
-- (claims, leases and retries change neither and pay nothing):
-- 1. a status change is announced on the event log as `message.status` (with the provider's
--    error when it failed), in the updating transaction: the streams see it once it commits;
-- 2. an OUTBOUND message whose message_stats key changed (status, error, template, group)
--    moves one count from its old key to its new one, as append-only deltas
--    (message_stats_count.sql says why nothing is updated in place): one move row when only the
--    status and error changed (the common case: `from_*` name what it left, see
--    db/schema/message-stats-deltas.ts), else a -1 row and a +1 row.
-- Team, number, contact and created_at cannot change (messages_conversation_keys_immutable.sql).
-- The common case (an OUTBOUND message's status moves) is one statement writing one event row and
-- one move row: each statement a PL/pgSQL function runs pays an executor start-up, and each row
-- its heap and index writes, the whole of a status write's price beyond the UPDATE itself.
CREATE OR REPLACE FUNCTION messages_status_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF OLD.status IS DISTINCT FROM NEW.status AND OLD.direction = 'OUTBOUND' AND NEW.direction = 'OUTBOUND'
      AND OLD.template_name IS NOT DISTINCT FROM NEW.template_name AND OLD.sent_group IS NOT DISTINCT FROM NEW.sent_group THEN
    WITH announced AS (
      INSERT INTO events (team_id, type, wa_number_id, contact_id, data)
      VALUES (NEW.team_id, 'message.status', NEW.wa_number_id, NEW.contact_id,
        jsonb_build_object('id', NEW.id, 'update_id', NEW.update_id, 'status', NEW.status, 'error', NEW.error))
    )
    INSERT INTO message_stats_deltas (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title,
      messages, from_status, from_error_code, from_error_title)
    VALUES
      (NEW.team_id, (NEW.created_at AT TIME ZONE 'UTC')::date, NEW.wa_number_id, coalesce(NEW.template_name, ''),
        coalesce(NEW.sent_group, ''), NEW.status, message_stats_error_code(NEW.status, NEW.error),
        message_stats_error_title(NEW.status, NEW.error), 1,
        OLD.status, message_stats_error_code(OLD.status, OLD.error), message_stats_error_title(OLD.status, OLD.error));
    RETURN NULL;
  END IF;
  -- Anything else (a change of error, template or group, or of direction): the general form,
  -- unless nothing counted changed (a FAILED message's error edited within its code and title).
  IF OLD.status IS NOT DISTINCT FROM NEW.status AND OLD.direction IS NOT DISTINCT FROM NEW.direction
      AND OLD.template_name IS NOT DISTINCT FROM NEW.template_name AND OLD.sent_group IS NOT DISTINCT FROM NEW.sent_group
      AND message_stats_error_code(OLD.status, OLD.error) = message_stats_error_code(NEW.status, NEW.error)
      AND message_stats_error_title(OLD.status, OLD.error) = message_stats_error_title(NEW.status, NEW.error) THEN
    RETURN NULL;
  END IF;
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

-- The WHEN clause holds no function call on purpose: a trigger's WHEN is prepared again for every
-- statement (it is not part of a cached plan), and preparing it inlines each SQL function it calls,
-- which parses that function's body anew. With message_stats_error_code/_title in it the clause
-- cost about 50 µs per UPDATE statement, more than the trigger's whole body (bench/log/2026-11-26-status-trigger-when.md,
-- "The trigger's WHEN clause"). So it says cheaply when a key may have changed (the error only
-- counts for a FAILED message), and the function returns at once when it has not.
CREATE OR REPLACE TRIGGER messages_update_4_status_changed AFTER UPDATE OF status, error, template_name, sent_group, direction ON messages
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status
    OR OLD.template_name IS DISTINCT FROM NEW.template_name OR OLD.sent_group IS DISTINCT FROM NEW.sent_group
    OR OLD.direction IS DISTINCT FROM NEW.direction
    OR (NEW.status = 'FAILED' AND OLD.error IS DISTINCT FROM NEW.error))
  EXECUTE FUNCTION messages_status_changed();
