-- message_stats_totals follows message_stats_months in the same statement: every change of a month's
-- count moves its key's all-time count by as much (db/schema/message-stats-totals.ts says why totals
-- exist). The months follow message_stats (message_stats_months.sql), so a write to the days moves
-- the months and then the totals, all in the statement that wrote the days. Statement-level with
-- transition tables, as for the months: the fold's one upsert of days is one upsert of months and
-- one of totals (an INSERT … ON CONFLICT DO UPDATE fires both the INSERT trigger, with the rows it
-- inserted, and the UPDATE trigger, with the rows it updated). Upserts in key order, so two writers
-- by hand take the rows' locks in the same order.
-- Migration 0040 made the same triggers before filling the table, under a lock on
-- message_stats_months, so no write fell between the fill and the first of them; this file is their
-- current definition.
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
END $$;

CREATE OR REPLACE TRIGGER message_stats_totals_insert AFTER INSERT ON message_stats_months
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_totals_follow();
CREATE OR REPLACE TRIGGER message_stats_totals_update AFTER UPDATE ON message_stats_months
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_totals_follow();
CREATE OR REPLACE TRIGGER message_stats_totals_delete AFTER DELETE ON message_stats_months
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION message_stats_totals_follow();
