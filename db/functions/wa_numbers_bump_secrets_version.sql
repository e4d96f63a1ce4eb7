-- The one row of wa_number_secrets_version moves with every change a webhook's secret lookup depends
-- on (lib/meta-webhooks/secrets.ts caches the Cloud API numbers with their secrets per process, finds a
-- webhook's number there, and re-reads them when it moved): credentials, provider, the
-- phone_number_id a webhook names, and the team a number belongs to.
-- UPDATE OF fires only when one of these columns is in the SET list, so the send-slot updates of
-- every send (next_send_at) pay nothing. Number changes are rare: this is no hot row for sends.
CREATE OR REPLACE FUNCTION wa_numbers_bump_secrets_version() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE wa_number_secrets_version SET version = version + 1 WHERE id = 1;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER wa_numbers_secrets_version AFTER INSERT OR DELETE OR UPDATE OF credentials, provider, phone_number_id, team_id ON wa_numbers
  FOR EACH STATEMENT EXECUTE FUNCTION wa_numbers_bump_secrets_version();

CREATE OR REPLACE TRIGGER wa_numbers_secrets_version_truncate AFTER TRUNCATE ON wa_numbers
  FOR EACH STATEMENT EXECUTE FUNCTION wa_numbers_bump_secrets_version();
