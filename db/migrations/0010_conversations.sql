CREATE TABLE "conversations" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"wa_number_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"last_message_id" integer NOT NULL,
	"last_message_created_at" timestamp with time zone NOT NULL,
	"last_message_at" timestamp with time zone NOT NULL,
	"last_direction" text NOT NULL,
	"last_inbound_at" timestamp with time zone,
	"last_inbound_message_id" integer,
	"unread_count" integer DEFAULT 0 NOT NULL,
	"assignee_agent_id" integer,
	"status" text DEFAULT 'open' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_wa_number_id_wa_numbers_id_fk" FOREIGN KEY ("wa_number_id") REFERENCES "public"."wa_numbers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assignee_agent_id_agents_id_fk" FOREIGN KEY ("assignee_agent_id") REFERENCES "public"."agents"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_key_uq" ON "conversations" USING btree ("team_id","wa_number_id","contact_id");--> statement-breakpoint
CREATE INDEX "conversations_team_activity_idx" ON "conversations" USING btree ("team_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "conversations_number_activity_idx" ON "conversations" USING btree ("team_id","wa_number_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "conversations_unread_idx" ON "conversations" USING btree ("team_id","last_message_at" DESC NULLS LAST) WHERE unread_count > 0;
--> statement-breakpoint
-- Every inserted message, whichever code path writes it, updates its conversation and is
-- announced as message.created, in the inserting statement's transaction (one statement-level
-- trigger: a bulk send of 1,000 rows runs it once). Conversations are upserted in key order so
-- two concurrent bulk inserts lock shared rows in the same order (no deadlock).
CREATE OR REPLACE FUNCTION messages_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO conversations AS c (team_id, wa_number_id, contact_id, last_message_id, last_message_created_at, last_message_at,
      last_direction, last_inbound_at, last_inbound_message_id, unread_count, status, updated_at)
  SELECT l.team_id, l.wa_number_id, l.contact_id, l.id, l.created_at, clock_timestamp(), l.direction, i.created_at, i.id,
    coalesce(i.n, 0), 'open', now()
  FROM (SELECT DISTINCT ON (team_id, wa_number_id, contact_id) team_id, wa_number_id, contact_id, id, created_at, direction
        FROM added ORDER BY team_id, wa_number_id, contact_id, created_at DESC, id DESC) l
  LEFT JOIN (SELECT DISTINCT ON (team_id, wa_number_id, contact_id) team_id, wa_number_id, contact_id, id, created_at,
               count(*) OVER (PARTITION BY team_id, wa_number_id, contact_id) AS n
             FROM added WHERE direction = 'INBOUND' ORDER BY team_id, wa_number_id, contact_id, created_at DESC, id DESC) i
    USING (team_id, wa_number_id, contact_id)
  ORDER BY 1, 2, 3
  ON CONFLICT (team_id, wa_number_id, contact_id) DO UPDATE SET
    -- The shown last message is the newest by its own time; the list's order is by activity (when
    -- it was stored), since inbound times come from the provider in whole seconds.
    last_message_id = CASE WHEN (EXCLUDED.last_message_created_at, EXCLUDED.last_message_id) >= (c.last_message_created_at, c.last_message_id)
      THEN EXCLUDED.last_message_id ELSE c.last_message_id END,
    last_direction = CASE WHEN (EXCLUDED.last_message_created_at, EXCLUDED.last_message_id) >= (c.last_message_created_at, c.last_message_id)
      THEN EXCLUDED.last_direction ELSE c.last_direction END,
    last_message_created_at = greatest(c.last_message_created_at, EXCLUDED.last_message_created_at),
    last_message_at = greatest(c.last_message_at, EXCLUDED.last_message_at),
    last_inbound_message_id = CASE WHEN EXCLUDED.last_inbound_at IS NOT NULL AND (c.last_inbound_at IS NULL OR EXCLUDED.last_inbound_at >= c.last_inbound_at)
      THEN EXCLUDED.last_inbound_message_id ELSE c.last_inbound_message_id END,
    last_inbound_at = greatest(c.last_inbound_at, EXCLUDED.last_inbound_at),
    unread_count = c.unread_count + EXCLUDED.unread_count,
    -- A new customer message reopens a resolved conversation.
    status = CASE WHEN EXCLUDED.unread_count > 0 THEN 'open' ELSE c.status END,
    updated_at = now();

  INSERT INTO events (team_id, type, wa_number_id, contact_id, data)
  SELECT a.team_id, 'message.created', a.wa_number_id, a.contact_id,
    jsonb_build_object('id', a.id, 'update_id', a.update_id, 'wa_number', n.number, 'contact_id', a.contact_id,
      'direction', a.direction, 'type', a.type, 'status', a.status,
      'created_at', to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  FROM added a JOIN wa_numbers n ON n.id = a.wa_number_id
  ORDER BY a.id;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER messages_after_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION messages_after_insert();
--> statement-breakpoint
-- Each status change is announced as message.status (with the provider's error when it failed).
-- Row-level with a WHEN clause: updates that leave the status alone (claims, leases) pay nothing.
CREATE OR REPLACE FUNCTION messages_status_event() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO events (team_id, type, wa_number_id, contact_id, data)
  VALUES (NEW.team_id, 'message.status', NEW.wa_number_id, NEW.contact_id,
    jsonb_build_object('id', NEW.id, 'update_id', NEW.update_id, 'status', NEW.status, 'error', NEW.error));
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER messages_status_event AFTER UPDATE OF status ON messages
  FOR EACH ROW WHEN (OLD.status IS DISTINCT FROM NEW.status) EXECUTE FUNCTION messages_status_event();
--> statement-breakpoint
-- Existing conversations, read as they stand (unread 0). Reads all of messages once.
INSERT INTO conversations (team_id, wa_number_id, contact_id, last_message_id, last_message_created_at, last_message_at,
    last_direction, last_inbound_at, last_inbound_message_id, unread_count, status)
SELECT l.team_id, l.wa_number_id, l.contact_id, l.id, l.created_at, l.created_at, l.direction, i.created_at, i.id, 0, 'open'
FROM (SELECT DISTINCT ON (team_id, wa_number_id, contact_id) team_id, wa_number_id, contact_id, id, created_at, direction
      FROM messages ORDER BY team_id, wa_number_id, contact_id, created_at DESC, id DESC) l
LEFT JOIN (SELECT DISTINCT ON (team_id, wa_number_id, contact_id) team_id, wa_number_id, contact_id, id, created_at
           FROM messages WHERE direction = 'INBOUND' ORDER BY team_id, wa_number_id, contact_id, created_at DESC, id DESC) i
  USING (team_id, wa_number_id, contact_id);
