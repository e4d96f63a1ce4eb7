-- Keeps message_provider_ids (db/schema/message-provider-ids.ts): the one message that holds a
-- provider id (wamid) on a number, the uniqueness the partitioned `messages` cannot index
-- (migration 0037). On every insert with a provider id and every change of one, the message claims
-- it; a claim another message already holds raises unique_violation, as the unique index on
-- messages did, so no writer (hand-written SQL included) can give two messages one wamid. The
-- inbound webhook claims first itself (lib/meta-webhooks/inbound-repo.ts), so its own claim is
-- found here and nothing more is done.
CREATE OR REPLACE FUNCTION message_provider_ids_claim() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  holder integer;
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.provider_message_id IS NOT NULL THEN
    DELETE FROM message_provider_ids
    WHERE wa_number_id = OLD.wa_number_id AND provider_message_id = OLD.provider_message_id AND message_id = OLD.id;
  END IF;
  IF NEW.provider_message_id IS NULL THEN
    RETURN NULL;
  END IF;
  INSERT INTO message_provider_ids (wa_number_id, provider_message_id, team_id, message_id)
  VALUES (NEW.wa_number_id, NEW.provider_message_id, NEW.team_id, NEW.id)
  ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    SELECT message_id INTO holder FROM message_provider_ids
    WHERE wa_number_id = NEW.wa_number_id AND provider_message_id = NEW.provider_message_id;
    IF holder IS DISTINCT FROM NEW.id THEN
      RAISE unique_violation USING
        MESSAGE = format('provider id %s of number %s already belongs to message %s', NEW.provider_message_id, NEW.wa_number_id, holder),
        CONSTRAINT = 'message_provider_ids_pkey';
    END IF;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER messages_insert_1_provider_id AFTER INSERT ON messages
  FOR EACH ROW WHEN (NEW.provider_message_id IS NOT NULL) EXECUTE FUNCTION message_provider_ids_claim();
CREATE OR REPLACE TRIGGER messages_update_3_provider_id AFTER UPDATE OF provider_message_id ON messages
  FOR EACH ROW WHEN (OLD.provider_message_id IS DISTINCT FROM NEW.provider_message_id) EXECUTE FUNCTION message_provider_ids_claim();
