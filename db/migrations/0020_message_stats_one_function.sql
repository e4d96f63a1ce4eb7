-- The message_stats rollup (0017) is kept by one trigger function instead of three near copies
-- (message_stats_add, _remove, _change repeated one INSERT … ON CONFLICT and differed only in the
-- transition tables they read and the sign). What the rollup holds does not change: the same key
-- of each OUTBOUND row, -1 for the rows that left (old keys) and +1 for those that arrived (new
-- keys), netted per key, written in key order (no deadlock between two writers), nothing written
-- for an UPDATE that changes no key. The three triggers stay (a transition table belongs to its
-- trigger, and an INSERT has no old rows nor a DELETE new ones); they now call the one function.
--
-- The shared statement reads an array of signed keys rather than the transition tables by name:
-- a statement naming a table its trigger does not have fails, and EXECUTE (choosing the tables by
-- TG_OP) would plan it anew on every UPDATE of messages, where this one is planned once.
--
-- One message's key with a signed count, as a message_stats row (its messages column is the count).
CREATE OR REPLACE FUNCTION message_stats_delta(n integer, team_id integer, created_at timestamptz, wa_number_id integer,
  template_name text, sent_group text, status text, error jsonb) RETURNS message_stats LANGUAGE sql IMMUTABLE AS $$
  SELECT ROW(team_id, (created_at AT TIME ZONE 'UTC')::date, wa_number_id, coalesce(template_name, ''), coalesce(sent_group, ''),
    status, message_stats_error_code(status, error), message_stats_error_title(status, error), n)::message_stats
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION message_stats_apply() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  delta message_stats[];
BEGIN
  IF TG_OP <> 'INSERT' THEN
    delta := ARRAY(SELECT message_stats_delta(-1, team_id, created_at, wa_number_id, template_name, sent_group, status, error)
                   FROM removed WHERE direction = 'OUTBOUND');
  END IF;
  IF TG_OP <> 'DELETE' THEN
    delta := delta || ARRAY(SELECT message_stats_delta(1, team_id, created_at, wa_number_id, template_name, sent_group, status, error)
                            FROM added WHERE direction = 'OUTBOUND');
  END IF;
  INSERT INTO message_stats AS s (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, messages)
  SELECT team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title, sum(messages)
  FROM unnest(delta)
  GROUP BY 1, 2, 3, 4, 5, 6, 7, 8 HAVING sum(messages) <> 0 ORDER BY 1, 2, 3, 4, 5, 6, 7, 8
  ON CONFLICT (team_id, day, wa_number_id, template_name, sent_group, status, error_code, error_title)
  DO UPDATE SET messages = s.messages + EXCLUDED.messages;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER messages_stats_add AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_apply();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER messages_stats_remove AFTER DELETE ON messages
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION message_stats_apply();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER messages_stats_change AFTER UPDATE ON messages
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_apply();
--> statement-breakpoint
DROP FUNCTION message_stats_add();
--> statement-breakpoint
DROP FUNCTION message_stats_remove();
--> statement-breakpoint
DROP FUNCTION message_stats_change();
