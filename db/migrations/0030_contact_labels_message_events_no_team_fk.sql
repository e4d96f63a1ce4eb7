ALTER TABLE "contact_labels" DROP CONSTRAINT "contact_labels_team_id_teams_id_fk";
--> statement-breakpoint
ALTER TABLE "message_events" DROP CONSTRAINT "message_events_team_id_teams_id_fk";
