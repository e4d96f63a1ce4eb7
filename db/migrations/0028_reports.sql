CREATE TABLE "report_conversation_events" (
	"team_id" integer NOT NULL,
	"day" date NOT NULL,
	"wa_number_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"kind" text NOT NULL,
	"seconds" integer
);
--> statement-breakpoint
CREATE TABLE "report_message_counts" (
	"team_id" integer NOT NULL,
	"day" date NOT NULL,
	"wa_number_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"direction" text NOT NULL,
	"messages" bigint NOT NULL,
	CONSTRAINT "report_message_counts_team_id_day_wa_number_id_contact_id_agent_id_direction_pk" PRIMARY KEY("team_id","day","wa_number_id","contact_id","agent_id","direction")
);
--> statement-breakpoint
CREATE TABLE "report_message_days" (
	"team_id" integer NOT NULL,
	"day" date NOT NULL,
	"wa_number_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"direction" text NOT NULL,
	"messages" bigint NOT NULL,
	CONSTRAINT "report_message_days_team_id_day_wa_number_id_agent_id_direction_pk" PRIMARY KEY("team_id","day","wa_number_id","agent_id","direction")
);
--> statement-breakpoint
CREATE TABLE "report_message_deltas" (
	"team_id" integer NOT NULL,
	"day" date NOT NULL,
	"wa_number_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"direction" text NOT NULL,
	"messages" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_responses" (
	"team_id" integer NOT NULL,
	"day" date NOT NULL,
	"wa_number_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"seconds" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "waiting_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "conversations" ADD COLUMN "opened_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
CREATE INDEX "report_conversation_events_team_day_idx" ON "report_conversation_events" USING btree ("team_id","day") INCLUDE ("wa_number_id","contact_id","agent_id","kind","seconds");--> statement-breakpoint
CREATE INDEX "report_message_deltas_team_idx" ON "report_message_deltas" USING btree ("team_id");--> statement-breakpoint
-- Covering (hand-written: drizzle-kit cannot express INCLUDE): a report reads these samples index-only.
CREATE INDEX "report_responses_team_day_idx" ON "report_responses" USING btree ("team_id","day") INCLUDE ("wa_number_id","contact_id","agent_id","seconds");--> statement-breakpoint
-- Backfill (hand-written): message counts of what is already stored, one row per key; a
-- conversation whose last message is the customer's waits since that message (an approximation:
-- its earlier unanswered messages are not looked for); first responses by the triggers' rule
-- (messages in id order). Past resolution times are not reconstructed (no history of statuses).
INSERT INTO "report_message_counts" ("team_id", "day", "wa_number_id", "contact_id", "agent_id", "direction", "messages")
SELECT "team_id", ("created_at" AT TIME ZONE 'UTC')::date, "wa_number_id", "contact_id",
  CASE WHEN "direction" = 'OUTBOUND' THEN "agent_id" ELSE 0 END, "direction", count(*)
FROM "messages" GROUP BY 1, 2, 3, 4, 5, 6;--> statement-breakpoint
INSERT INTO "report_message_days" ("team_id", "day", "wa_number_id", "agent_id", "direction", "messages")
SELECT "team_id", "day", "wa_number_id", "agent_id", "direction", sum("messages")
FROM "report_message_counts" GROUP BY 1, 2, 3, 4, 5;--> statement-breakpoint
UPDATE "conversations" SET "waiting_since" = "last_inbound_at" WHERE "last_direction" = 'INBOUND' AND "status" = 'open';--> statement-breakpoint
INSERT INTO "report_responses" ("team_id", "day", "wa_number_id", "contact_id", "agent_id", "seconds")
SELECT team_id, (answered_at AT TIME ZONE 'UTC')::date AS day, wa_number_id, contact_id, agent_id,
  greatest(0, round(extract(epoch FROM answered_at - first_in)))::int AS seconds
FROM (SELECT team_id, wa_number_id, contact_id, grp,
        min(created_at) FILTER (WHERE direction = 'INBOUND') AS first_in,
        min(created_at) FILTER (WHERE direction = 'OUTBOUND') AS answered_at,
        min(agent_id) FILTER (WHERE direction = 'OUTBOUND') AS agent_id
      FROM (SELECT team_id, wa_number_id, contact_id, created_at, agent_id, direction,
              count(*) FILTER (WHERE direction = 'OUTBOUND') OVER (PARTITION BY team_id, wa_number_id, contact_id ORDER BY id
                ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS grp
            FROM messages
            WHERE (direction = 'INBOUND' OR (sender IN ('AGENT', 'SYSTEM') AND broadcast_id IS NULL))) e
      GROUP BY 1, 2, 3, 4) s
WHERE answered_at IS NOT NULL AND first_in IS NOT NULL;
