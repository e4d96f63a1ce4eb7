-- message_stats_months follows message_stats in the same statement: every change of a day's count
-- moves its month's count by as much (db/schema/message-stats-months.ts says why months exist).
-- Statement-level with transition tables: the fold writes up to 50,000 day rows in one upsert,
-- which is one upsert of their months here (an INSERT … ON CONFLICT DO UPDATE fires both the
-- INSERT trigger, with the rows it inserted, and the UPDATE trigger, with the rows it updated).
-- Its only regular writer is the fold, one process at a time, so these month rows are never hot.
-- Migration 0039 made the same triggers before filling the table, under a lock on message_stats,
-- so no write fell between the fill and the first of them; this file is their current definition.
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
END $$;

CREATE OR REPLACE TRIGGER message_stats_months_insert AFTER INSERT ON message_stats
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_months_follow();
CREATE OR REPLACE TRIGGER message_stats_months_update AFTER UPDATE ON message_stats
  REFERENCING OLD TABLE AS removed NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_months_follow();
CREATE OR REPLACE TRIGGER message_stats_months_delete AFTER DELETE ON message_stats
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION message_stats_months_follow();
