CREATE TABLE "message_stats_months" (
	"team_id" integer NOT NULL,
	"month" date NOT NULL,
	"wa_number_id" integer NOT NULL,
	"template_name" text NOT NULL,
	"sent_group" text NOT NULL,
	"status" text NOT NULL,
	"error_code" bigint NOT NULL,
	"error_title" text NOT NULL,
	"messages" bigint NOT NULL,
	CONSTRAINT "message_stats_months_pk" PRIMARY KEY("team_id","month","wa_number_id","template_name","sent_group","status","error_code","error_title")
);
--> statement-breakpoint
CREATE INDEX "message_stats_months_team_group_idx" ON "message_stats_months" USING btree ("team_id","sent_group");--> statement-breakpoint
-- The months of every day already counted, filled under a lock that holds off the fold (and any
-- other writer of message_stats) until this migration commits, with the triggers that keep them
-- made first: a write either comes before the fill (and is in it) or after it (and moves the
-- month by its trigger). db/functions/message_stats_months.sql is the triggers' current definition.
LOCK TABLE "message_stats" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_stats_months_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO message_stats_months AS m (team_id, month, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
    SELECT team_id, date_trunc('month', day::timestamp)::date, wa_number_id, template_name, sent_group, status, error_code, error_title, sum(messages)
    FROM added GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(messages) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT (team_id, month, wa_number_id, template_name, sent_group, status, error_code, error_title)
    DO UPDATE SET messages = m.messages + EXCLUDED.messages;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO message_stats_months AS m (team_id, month, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
    SELECT team_id, date_trunc('month', day::timestamp)::date, wa_number_id, template_name, sent_group, status, error_code, error_title, sum(messages)
    FROM (SELECT team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, messages FROM added
          UNION ALL
          SELECT team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, -messages FROM removed) c
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(messages) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT (team_id, month, wa_number_id, template_name, sent_group, status, error_code, error_title)
    DO UPDATE SET messages = m.messages + EXCLUDED.messages;
  ELSE
    INSERT INTO message_stats_months AS m (team_id, month, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
    SELECT team_id, date_trunc('month', day::timestamp)::date, wa_number_id, template_name, sent_group, status, error_code, error_title, -sum(messages)
    FROM removed GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(messages) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
    ON CONFLICT (team_id, month, wa_number_id, template_name, sent_group, status, error_code, error_title)
    DO UPDATE SET messages = m.messages + EXCLUDED.messages;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER message_stats_months_insert AFTER INSERT ON message_stats
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_months_follow();--> statement-breakpoint
CREATE OR REPLACE TRIGGER message_stats_months_update AFTER UPDATE ON message_stats
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_months_follow();--> statement-breakpoint
CREATE OR REPLACE TRIGGER message_stats_months_delete AFTER DELETE ON message_stats
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION message_stats_months_follow();--> statement-breakpoint
INSERT INTO "message_stats_months" (team_id, month, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
SELECT team_id, date_trunc('month', day::timestamp)::date, wa_number_id, template_name, sent_group, status, error_code, error_title, sum(messages)
FROM "message_stats" GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
