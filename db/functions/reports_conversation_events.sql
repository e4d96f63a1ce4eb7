-- Conversations opened and resolved, for the reports (docs/features/reports.md): one append-only row per event in
-- report_conversation_events (no shared counter row: docs/write-path.md). Whatever changes a status
-- is covered: the conversations API, the reopening upsert of messages_after_insert.sql, or a
-- hand-written UPDATE.
-- - A new conversation is opened at its first message (opened_at, set by messages_after_insert).
-- - Reopened: a customer message sets opened_at to its time in the same upsert; any other reopening
--   (the API) starts now.
-- - Resolved: its resolution time is now - opened_at, credited to the assignee (0: nobody).
-- Each event is also counted in report_histogram_deltas (per day, at the four number/agent levels
-- of db/schema/reports.ts: openings in bucket 0, resolutions in the bucket of their time,
-- report_seconds_bucket.sql), appended, never updated: a day's row is shared by every writer of
-- the team (a hot row: docs/write-path.md), so a chore folds them.
-- BEFORE UPDATE so that opened_at is set in the row being written (no second update); AFTER INSERT
-- because an upsert's BEFORE INSERT fires for rows that end up as updates.
CREATE OR REPLACE FUNCTION reports_conversation_events() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  at_day date;
  took integer;
  agent integer := coalesce(NEW.assignee_agent_id, 0);
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.status = 'open' AND NEW.opened_at IS NOT DISTINCT FROM OLD.opened_at THEN
    NEW.opened_at := now();
  END IF;
  IF NEW.status = 'open' THEN
    at_day := (NEW.opened_at AT TIME ZONE 'UTC')::date;
    INSERT INTO report_conversation_events (team_id, day, wa_number_id, contact_id, agent_id, kind, seconds)
    VALUES (NEW.team_id, at_day, NEW.wa_number_id, NEW.contact_id, agent, 'opened', NULL);
    INSERT INTO report_histogram_deltas (team_id, day, wa_number_id, agent_id, metric, bucket, samples, seconds)
    SELECT NEW.team_id, at_day, l.wa_number_id, l.agent_id, 'opened', 0, 1, 0
    FROM (VALUES (NEW.wa_number_id, agent), (NEW.wa_number_id, -1), (0, agent), (0, -1)) l(wa_number_id, agent_id);
  ELSIF NEW.status = 'resolved' THEN
    at_day := (now() AT TIME ZONE 'UTC')::date;
    took := greatest(0, round(extract(epoch FROM now() - NEW.opened_at)))::int;
    INSERT INTO report_conversation_events (team_id, day, wa_number_id, contact_id, agent_id, kind, seconds)
    VALUES (NEW.team_id, at_day, NEW.wa_number_id, NEW.contact_id, agent, 'resolved', took);
    INSERT INTO report_histogram_deltas (team_id, day, wa_number_id, agent_id, metric, bucket, samples, seconds)
    SELECT NEW.team_id, at_day, l.wa_number_id, l.agent_id, 'resolution', report_seconds_bucket(took), 1, took
    FROM (VALUES (NEW.wa_number_id, agent), (NEW.wa_number_id, -1), (0, agent), (0, -1)) l(wa_number_id, agent_id);
  END IF;
  RETURN NEW;
END $$;

CREATE OR REPLACE TRIGGER conversations_report_status BEFORE UPDATE OF status ON conversations
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION reports_conversation_events();

CREATE OR REPLACE TRIGGER conversations_report_opened AFTER INSERT ON conversations
  FOR EACH ROW EXECUTE FUNCTION reports_conversation_events();
