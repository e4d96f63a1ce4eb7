-- A deleted team takes its event log with it. The log has no foreign key to teams (a key-share lock
-- on the team's row in every writing transaction would make that row hot: db/schema/events.ts), so
-- this trigger does what ON DELETE CASCADE did. Teams are deleted rarely and by hand.
CREATE OR REPLACE FUNCTION teams_delete_events() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM events e USING gone g WHERE e.team_id = g.id;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER teams_delete_events AFTER DELETE ON teams
  REFERENCING OLD TABLE AS gone FOR EACH STATEMENT EXECUTE FUNCTION teams_delete_events();
