CREATE TABLE "events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"type" text NOT NULL,
	"wa_number_id" integer,
	"contact_id" integer,
	"data" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_team_id_idx" ON "events" USING btree ("team_id","id");--> statement-breakpoint
CREATE INDEX "events_created_at_idx" ON "events" USING btree ("created_at");--> statement-breakpoint
-- Announce each committed event on channel wa_events (NOTIFY is delivered at commit, never for a
-- rolled-back row). NOTIFY payloads are capped at 8000 bytes: an event too large to carry is
-- announced by id alone and the listener reads it back.
CREATE FUNCTION "events_notify"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  payload text := json_build_object('id', NEW.id, 'team_id', NEW.team_id, 'type', NEW.type,
    'wa_number_id', NEW.wa_number_id, 'contact_id', NEW.contact_id, 'data', NEW.data)::text;
BEGIN
  IF octet_length(payload) > 7900 THEN
    payload := json_build_object('id', NEW.id, 'team_id', NEW.team_id)::text;
  END IF;
  PERFORM pg_notify('wa_events', payload);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "events_notify" AFTER INSERT ON "events" FOR EACH ROW EXECUTE FUNCTION "events_notify"();
