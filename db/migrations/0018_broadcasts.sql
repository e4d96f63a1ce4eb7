CREATE TABLE "broadcast_rejections" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"broadcast_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"errors" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "broadcasts" (
	"id" serial PRIMARY KEY NOT NULL,
	"team_id" integer NOT NULL,
	"wa_number_id" integer NOT NULL,
	"template_id" integer NOT NULL,
	"name" text NOT NULL,
	"status" text NOT NULL,
	"audience" jsonb NOT NULL,
	"send" jsonb NOT NULL,
	"sent_group" text NOT NULL,
	"scheduled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone,
	"created_by_agent_id" integer,
	"created_by_agent_name" text,
	"recipients" integer DEFAULT 0 NOT NULL,
	"rejected" integer DEFAULT 0 NOT NULL,
	"enqueue_cursor" integer DEFAULT 0 NOT NULL,
	"enqueued_at" timestamp with time zone,
	"progress_at" timestamp with time zone,
	"progress_key" text,
	CONSTRAINT "broadcasts_team_id_id_uq" UNIQUE("team_id","id")
);
--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "broadcast_id" integer;--> statement-breakpoint
ALTER TABLE "broadcast_rejections" ADD CONSTRAINT "broadcast_rejections_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_rejections" ADD CONSTRAINT "broadcast_rejections_broadcast_fk" FOREIGN KEY ("team_id","broadcast_id") REFERENCES "public"."broadcasts"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcast_rejections" ADD CONSTRAINT "broadcast_rejections_contact_fk" FOREIGN KEY ("team_id","contact_id") REFERENCES "public"."contacts"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_wa_number_fk" FOREIGN KEY ("team_id","wa_number_id") REFERENCES "public"."wa_numbers"("team_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD CONSTRAINT "broadcasts_template_fk" FOREIGN KEY ("team_id","template_id") REFERENCES "public"."templates"("team_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "broadcast_rejections_broadcast_idx" ON "broadcast_rejections" USING btree ("team_id","broadcast_id","id");--> statement-breakpoint
CREATE INDEX "broadcasts_active_idx" ON "broadcasts" USING btree ("status","finished_at");--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_broadcast_fk" FOREIGN KEY ("team_id","broadcast_id") REFERENCES "public"."broadcasts"("team_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_broadcast_idx" ON "messages" USING btree ("team_id","broadcast_id","id") WHERE broadcast_id IS NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_broadcast_status_idx" ON "messages" USING btree ("team_id","broadcast_id","status") WHERE broadcast_id IS NOT NULL;--> statement-breakpoint
-- A broadcast's messages update their conversations like every message, but are not announced one
-- by one as message.created: a 100,000-recipient broadcast would push 100,000 events through every
-- open dashboard stream within seconds (and double its enqueue time). Its progress is announced
-- as broadcast.updated instead (lib/broadcasts/announce.ts). Otherwise the function of migration 0010.
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
  WHERE a.broadcast_id IS NULL
  ORDER BY a.id;
  RETURN NULL;
END $$;
