CREATE TABLE "template_syncs" (
	"team_id" integer NOT NULL,
	"business_account_id" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"triggered_by" text DEFAULT 'schedule' NOT NULL,
	"result" jsonb,
	CONSTRAINT "template_syncs_pk" PRIMARY KEY("team_id","business_account_id")
);
--> statement-breakpoint
ALTER TABLE "template_changes" ADD COLUMN "source" text DEFAULT 'webhook' NOT NULL;--> statement-breakpoint
ALTER TABLE "template_syncs" ADD CONSTRAINT "template_syncs_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE cascade ON UPDATE no action;