-- Processes cache active API tokens (lib/auth/token-cache.ts). Whatever can end a token or change
-- what it may do (its scopes, its expiry, the end of a roll's overlap), however it is done (the
-- API, the admin CLI, a replica, a hand-written UPDATE), is announced to every process with NOTIFY
-- wa_auth '<token id>', sent at commit, so each drops its copy at once. Touching last_used_at
-- changes nothing that matters and announces nothing. This is the one NOTIFY left in a writing
-- transaction: revocations and rolls are rare, never on the path of sends or statuses.
CREATE OR REPLACE FUNCTION api_tokens_announce_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('wa_auth', OLD.id::text);
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER api_tokens_announce_update AFTER UPDATE OF revoked_at, token_hash, team_id, scopes, expires_at, overlap_ends_at
  ON api_tokens
  FOR EACH ROW WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.token_hash IS DISTINCT FROM NEW.token_hash
    OR OLD.team_id IS DISTINCT FROM NEW.team_id OR OLD.scopes IS DISTINCT FROM NEW.scopes
    OR OLD.expires_at IS DISTINCT FROM NEW.expires_at OR OLD.overlap_ends_at IS DISTINCT FROM NEW.overlap_ends_at)
  EXECUTE FUNCTION api_tokens_announce_change();

CREATE OR REPLACE TRIGGER api_tokens_announce_delete AFTER DELETE ON api_tokens
  FOR EACH ROW EXECUTE FUNCTION api_tokens_announce_change();
