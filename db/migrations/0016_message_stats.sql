CREATE TABLE "message_stats" (
	"team_id" integer NOT NULL,
	"day" date NOT NULL,
	"wa_number_id" integer NOT NULL,
	"template_name" text NOT NULL,
	"sent_group" text NOT NULL,
	"status" text NOT NULL,
	"error_code" bigint NOT NULL,
	"error_title" text NOT NULL,
	"messages" bigint NOT NULL,
	CONSTRAINT "message_stats_pk" PRIMARY KEY("team_id","day","wa_number_id","template_name","sent_group","status","error_code","error_title")
);
--> statement-breakpoint
CREATE INDEX "message_stats_team_group_idx" ON "message_stats" USING btree ("team_id","sent_group");--> statement-breakpoint
-- The rollup's key of one message row (OUTBOUND only): UTC day, number, template name, sent_group,
-- status and, for FAILED, the provider's error code (0 when absent or not a plain integer) and
-- title (200 characters at most, so the key always fits a btree entry). IMMUTABLE: also used by
-- the backfill below and the bench's one-statement build.
CREATE OR REPLACE FUNCTION message_stats_error_code(status text, error jsonb) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status = 'FAILED' AND jsonb_typeof(error -> 'code') = 'number'
                   AND (error ->> 'code') ~ '^-?[0-9]{1,15}$' THEN (error ->> 'code')::bigint ELSE 0 END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_stats_error_title(status text, error jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status = 'FAILED' THEN left(coalesce(error ->> 'title', ''), 200) ELSE '' END
$$;
--> statement-breakpoint
-- Three statement-level triggers, one per operation, each netting the signed counts of the rows
-- that left (old keys, -1) and arrived (new keys, +1) per key and applying them in key order (two
-- concurrent writers lock shared rows in the same order: no deadlock). A claim or a lease changes
-- no key, nets to nothing and writes nothing. Transition tables need statement-level triggers
-- without a column list, so the UPDATE trigger runs for every UPDATE of messages; its cost for a
-- key-less update is one aggregate over the statement's rows.
CREATE OR REPLACE FUNCTION message_stats_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_stats AS s (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
  SELECT team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, sum(n)
  FROM (
    SELECT team_id, (created_at AT TIME ZONE 'UTC')::date AS day, wa_number_id, coalesce(template_name, '') AS template_name,
      coalesce(sent_group, '') AS sent_group, status, message_stats_error_code(status, error) AS error_code,
      message_stats_error_title(status, error) AS error_title, 1 AS n FROM added WHERE direction = 'OUTBOUND'
  ) d
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title)
  DO UPDATE SET messages = s.messages + EXCLUDED.messages;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_stats_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_stats AS s (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
  SELECT team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, sum(n)
  FROM (
    SELECT team_id, (created_at AT TIME ZONE 'UTC')::date AS day, wa_number_id, coalesce(template_name, '') AS template_name,
      coalesce(sent_group, '') AS sent_group, status, message_stats_error_code(status, error) AS error_code,
      message_stats_error_title(status, error) AS error_title, -1 AS n FROM removed WHERE direction = 'OUTBOUND'
  ) d
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title)
  DO UPDATE SET messages = s.messages + EXCLUDED.messages;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_stats_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO message_stats AS s (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
  SELECT team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, sum(n)
  FROM (
    SELECT team_id, (created_at AT TIME ZONE 'UTC')::date AS day, wa_number_id, coalesce(template_name, '') AS template_name,
      coalesce(sent_group, '') AS sent_group, status, message_stats_error_code(status, error) AS error_code,
      message_stats_error_title(status, error) AS error_title, -1 AS n FROM removed WHERE direction = 'OUTBOUND'
    UNION ALL
    SELECT team_id, (created_at AT TIME ZONE 'UTC')::date AS day, wa_number_id, coalesce(template_name, '') AS template_name,
      coalesce(sent_group, '') AS sent_group, status, message_stats_error_code(status, error) AS error_code,
      message_stats_error_title(status, error) AS error_title, 1 AS n FROM added WHERE direction = 'OUTBOUND'
  ) d
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(n) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title)
  DO UPDATE SET messages = s.messages + EXCLUDED.messages;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER messages_stats_add AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_add();
--> statement-breakpoint
CREATE TRIGGER messages_stats_remove AFTER DELETE ON messages
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION message_stats_remove();
--> statement-breakpoint
CREATE TRIGGER messages_stats_change AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_change();
--> statement-breakpoint
-- Existing sends (reads all of messages once; apply at a quiet hour on a large table).
INSERT INTO message_stats (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
SELECT team_id, (created_at AT TIME ZONE 'UTC')::date, wa_number_id, coalesce(template_name, ''), coalesce(sent_group, ''), status,
  message_stats_error_code(status, error), message_stats_error_title(status, error), count(*)
FROM messages WHERE direction = 'OUTBOUND'
GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
