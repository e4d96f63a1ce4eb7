CREATE TABLE "message_stats_totals" (
	"team_id" integer NOT NULL,
	"wa_number_id" integer NOT NULL,
	"template_name" text NOT NULL,
	"sent_group" text NOT NULL,
	"status" text NOT NULL,
	"error_code" bigint NOT NULL,
	"error_title" text NOT NULL,
	"messages" bigint NOT NULL,
	CONSTRAINT "message_stats_totals_pk" PRIMARY KEY("team_id","wa_number_id","template_name","sent_group","status","error_code","error_title")
);
--> statement-breakpoint
CREATE INDEX "message_stats_totals_team_group_idx" ON "message_stats_totals" USING btree ("team_id","sent_group");--> statement-breakpoint
-- The all-time count of every key already counted, filled under a lock that holds off the fold (and
-- any other writer of message_stats, whose trigger writes the months) until this migration commits,
-- with the triggers that keep them made first: a write either comes before the fill (and is in it)
-- or after it (and moves the total by its trigger). db/functions/message_stats_totals.sql is the
-- triggers' current definition.
LOCK TABLE "message_stats_months" IN SHARE ROW EXCLUSIVE MODE;--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_stats_totals_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO message_stats_totals AS t (team_id, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
    SELECT team_id, wa_number_id, template_name, sent_group, status, error_code, error_title, sum(messages)
    FROM added GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(messages) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (team_id, wa_number_id, template_name, sent_group, status, error_code, error_title)
    DO UPDATE SET messages = t.messages + EXCLUDED.messages;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO message_stats_totals AS t (team_id, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
    SELECT team_id, wa_number_id, template_name, sent_group, status, error_code, error_title, sum(messages)
    FROM (SELECT team_id, wa_number_id, template_name, sent_group, status, error_code, error_title, messages FROM added
          UNION ALL
          SELECT team_id, wa_number_id, template_name, sent_group, status, error_code, error_title, -messages FROM removed) c
    GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(messages) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (team_id, wa_number_id, template_name, sent_group, status, error_code, error_title)
    DO UPDATE SET messages = t.messages + EXCLUDED.messages;
  ELSE
    INSERT INTO message_stats_totals AS t (team_id, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
    SELECT team_id, wa_number_id, template_name, sent_group, status, error_code, error_title, -sum(messages)
    FROM removed GROUP BY 1, 2, 3, 4, 5, 6, 7 HAVING sum(messages) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7
    ON CONFLICT (team_id, wa_number_id, template_name, sent_group, status, error_code, error_title)
    DO UPDATE SET messages = t.messages + EXCLUDED.messages;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE OR REPLACE TRIGGER message_stats_totals_insert AFTER INSERT ON message_stats_months
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_totals_follow();--> statement-breakpoint
CREATE OR REPLACE TRIGGER message_stats_totals_update AFTER UPDATE ON message_stats_months
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_totals_follow();--> statement-breakpoint
CREATE OR REPLACE TRIGGER message_stats_totals_delete AFTER DELETE ON message_stats_months
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION message_stats_totals_follow();--> statement-breakpoint
INSERT INTO "message_stats_totals" (team_id, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
SELECT team_id, wa_number_id, template_name, sent_group, status, error_code, error_title, sum(messages)
FROM "message_stats_months" GROUP BY 1, 2, 3, 4, 5, 6, 7;
