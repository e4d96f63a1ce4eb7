-- Processes cache what a template send reads of its number and template (lib/messages/send-catalog.ts),
-- so a send costs no read for them. Whatever changes that, however it is done (the API, Meta's
-- webhooks, the sync with Meta's lists, the admin CLI, a replica, a hand-written statement), is
-- announced to every process with NOTIFY wa_catalog '<team id>' ('*' for a TRUNCATE), sent at commit,
-- so each drops the team's entries at once: a number's digits, team or switch-off, its deletion;
-- any template inserted (a number's own one outranks a team-wide one of the same name), deleted, or
-- changed in a column a send reads. The send slot (next_send_at, every send), Meta's health figures,
-- credentials and quality scores announce nothing (UPDATE OF leaves them out; the body compares the
-- rest). pg_notify takes an instance-wide lock at commit (docs/write-path.md): these changes are rare
-- and never on the path of sends or statuses; a sync that changes nothing announces nothing, and one
-- that changes many templates of a team sends one NOTIFY (identical payloads of a transaction fold).
-- One trigger per table for INSERT, UPDATE and DELETE (a WHEN clause could not name OLD for all three).
CREATE OR REPLACE FUNCTION send_catalog_announce() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    PERFORM pg_notify('wa_catalog', '*');
    RETURN NULL;
  END IF;
  IF TG_OP = 'UPDATE' AND OLD.team_id IS NOT DISTINCT FROM NEW.team_id THEN
    IF TG_TABLE_NAME = 'wa_numbers' THEN
      IF OLD.number IS NOT DISTINCT FROM NEW.number AND OLD.disabled_at IS NOT DISTINCT FROM NEW.disabled_at THEN
        RETURN NULL;
      END IF;
    ELSIF to_jsonb(OLD) - '{quality_score,status_changed_at,updated_at}'::text[]
          = to_jsonb(NEW) - '{quality_score,status_changed_at,updated_at}'::text[] THEN
      RETURN NULL;
    END IF;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    PERFORM pg_notify('wa_catalog', OLD.team_id::text);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM pg_notify('wa_catalog', NEW.team_id::text);
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER wa_numbers_announce AFTER INSERT OR DELETE OR UPDATE OF number, team_id, disabled_at ON wa_numbers
  FOR EACH ROW EXECUTE FUNCTION send_catalog_announce();

CREATE OR REPLACE TRIGGER wa_numbers_announce_truncate AFTER TRUNCATE ON wa_numbers
  FOR EACH STATEMENT EXECUTE FUNCTION send_catalog_announce();

CREATE OR REPLACE TRIGGER templates_announce AFTER INSERT OR DELETE OR UPDATE OF team_id, wa_number_id, external_id, name,
    language, category, status, rejected_reason, components, default_media_path ON templates
  FOR EACH ROW EXECUTE FUNCTION send_catalog_announce();

CREATE OR REPLACE TRIGGER templates_announce_truncate AFTER TRUNCATE ON templates
  FOR EACH STATEMENT EXECUTE FUNCTION send_catalog_announce();
