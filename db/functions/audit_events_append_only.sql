-- The audit trail (lib/audit) is append-only for the app: no row is ever changed, and none is
-- deleted but by the retention (lib/audit/repo.ts purgeAuditEvents, which says so with
-- `app.audit_purge`, local to its transaction) or with its team (ON DELETE CASCADE: the team's
-- row is gone by the time the cascade deletes its trail). Anything else raises, so neither a bug
-- nor a hand-written statement through the app's connection can rewrite who did what.
CREATE OR REPLACE FUNCTION audit_events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND (current_setting('app.audit_purge', true) = 'on'
      OR NOT EXISTS (SELECT 1 FROM teams WHERE id = OLD.team_id)) THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION 'audit_events is append-only (%)', TG_OP USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE OR REPLACE TRIGGER audit_events_append_only BEFORE UPDATE OR DELETE ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_append_only();

CREATE OR REPLACE FUNCTION audit_events_no_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only (TRUNCATE)' USING ERRCODE = 'insufficient_privilege';
END $$;

CREATE OR REPLACE TRIGGER audit_events_no_truncate BEFORE TRUNCATE ON audit_events
  FOR EACH STATEMENT EXECUTE FUNCTION audit_events_no_truncate();
