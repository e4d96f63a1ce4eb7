-- Messages per conversation and UTC day, for the history's total_items (docs/history.md, "The
-- count's rollup"). The backfill at the end reads all of messages once (~6 s per million rows
-- here); the trigger creation holds a lock that makes inserts into messages wait until this
-- migration commits, so on a large table apply it at a quiet hour.
CREATE TABLE "conversation_days" (
	"team_id" integer NOT NULL,
	"wa_number_id" integer NOT NULL,
	"contact_id" integer NOT NULL,
	"day" date NOT NULL,
	"messages" integer NOT NULL,
	CONSTRAINT "conversation_days_team_id_wa_number_id_contact_id_day_pk" PRIMARY KEY("team_id","wa_number_id","contact_id","day")
);
--> statement-breakpoint
-- Rows are added in key order so that two concurrent bulk inserts lock shared days in the same
-- order (no deadlock). Days are UTC dates; the history turns its window into UTC bounds.
CREATE OR REPLACE FUNCTION conversation_days_add() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO conversation_days AS d (team_id, wa_number_id, contact_id, day, messages)
  SELECT team_id, wa_number_id, contact_id, (created_at AT TIME ZONE 'UTC')::date, count(*)
  FROM added GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (team_id, wa_number_id, contact_id, day) DO UPDATE SET messages = d.messages + EXCLUDED.messages;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION conversation_days_remove() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH gone AS (
    SELECT team_id, wa_number_id, contact_id, (created_at AT TIME ZONE 'UTC')::date AS day, count(*) AS n
    FROM removed GROUP BY 1, 2, 3, 4
  )
  UPDATE conversation_days d SET messages = d.messages - gone.n FROM gone
  WHERE d.team_id = gone.team_id AND d.wa_number_id = gone.wa_number_id AND d.contact_id = gone.contact_id AND d.day = gone.day;
  DELETE FROM conversation_days d
  USING (SELECT DISTINCT team_id, wa_number_id, contact_id, (created_at AT TIME ZONE 'UTC')::date AS day FROM removed) g
  WHERE d.team_id = g.team_id AND d.wa_number_id = g.wa_number_id AND d.contact_id = g.contact_id AND d.day = g.day
    AND d.messages <= 0;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER messages_conversation_days_add AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION conversation_days_add();
--> statement-breakpoint
CREATE TRIGGER messages_conversation_days_remove AFTER DELETE ON messages
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION conversation_days_remove();
--> statement-breakpoint
INSERT INTO conversation_days (team_id, wa_number_id, contact_id, day, messages)
SELECT team_id, wa_number_id, contact_id, (created_at AT TIME ZONE 'UTC')::date, count(*)
FROM messages GROUP BY 1, 2, 3, 4;
