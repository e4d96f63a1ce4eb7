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
CREATE INDEX "messages_broadcast_status_idx" ON "messages" USING btree ("team_id","broadcast_id","status") WHERE broadcast_id IS NOT NULL;