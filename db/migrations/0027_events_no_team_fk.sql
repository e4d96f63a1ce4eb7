ALTER TABLE "events" DROP CONSTRAINT "events_team_id_teams_id_fk";
