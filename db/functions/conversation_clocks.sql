-- The clocks the inbox shows on a conversation (docs/features/inbox.md), kept on its row when its
-- status changes, whoever changes it (the conversations API, the reopening upsert of
-- messages_after_insert.sql, a hand-written UPDATE):
-- - Resolved: resolved_at is now, and nothing waits any more (waiting_since null): resolving says
--   nothing is owed to the customer, so a later message starts a new wait instead of counting the
--   days the conversation lay resolved.
-- - Reopened: resolved_at is cleared. A reopening from the API starts an opening with no answer
--   yet (first_response_seconds null); a customer's message that reopens sets opened_at and
--   first_response_seconds itself in its upsert, so they are left as that upsert wrote them.
-- BEFORE UPDATE, so the row is written once; it fires before conversations_report_status
-- (alphabetical order), which only reads opened_at as written by the statement.
CREATE OR REPLACE FUNCTION conversation_clocks() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.status = 'resolved' THEN
    NEW.resolved_at := now();
    NEW.waiting_since := NULL;
  ELSE
    NEW.resolved_at := NULL;
    IF NEW.opened_at IS NOT DISTINCT FROM OLD.opened_at THEN
      NEW.first_response_seconds := NULL;
    END IF;
  END IF;
  RETURN NEW;
END $$;

CREATE OR REPLACE TRIGGER conversations_clocks BEFORE UPDATE OF status ON conversations
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION conversation_clocks();
