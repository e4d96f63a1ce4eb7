-- The rollups keyed by conversation (conversation_days, conversations) are kept by INSERT and
-- DELETE triggers only, because a message's conversation and day never change. This makes that a
-- rule instead of a habit: an UPDATE that would move a message to another team, number, contact or
-- time fails. The trigger fires only when one of these columns is in the SET list, so status
-- updates pay nothing.
CREATE OR REPLACE FUNCTION messages_conversation_keys_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'messages.team_id, wa_number_id, contact_id and created_at cannot change (the conversation_days rollup depends on them)'
    USING ERRCODE = 'restrict_violation';
END $$;

CREATE OR REPLACE TRIGGER messages_update_1_keys_immutable BEFORE UPDATE OF team_id, wa_number_id, contact_id, created_at ON messages
  FOR EACH ROW WHEN (OLD.team_id IS DISTINCT FROM NEW.team_id OR OLD.wa_number_id IS DISTINCT FROM NEW.wa_number_id
    OR OLD.contact_id IS DISTINCT FROM NEW.contact_id OR OLD.created_at IS DISTINCT FROM NEW.created_at)
  EXECUTE FUNCTION messages_conversation_keys_immutable();
