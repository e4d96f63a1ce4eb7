-- Inserted and deleted OUTBOUND messages counted into message_stats, as append-only deltas
-- (+1 per inserted row, -1 per deleted one, netted per key within the statement). Nothing is
-- updated in place: the rollup row of a key is shared by every send of that template and day,
-- and concurrent writers of one row wait on each other (docs/write-path.md, "No hot rows"). The
-- deltas are folded into message_stats by lib/messages/stats-service.ts and added on read until then.
-- Statement-level with transition tables: a bulk insert of 1,000 rows is one INSERT … SELECT here.
-- Updates are counted by messages_status_changed.sql (row-level: one row at a time is the usual
-- update, and a row trigger skips updates that change no key, such as claims and leases).
CREATE OR REPLACE FUNCTION message_stats_count() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO message_stats_deltas
    SELECT (d).team_id, (d).day, (d).wa_number_id, (d).template_name, (d).sent_group, (d).status, (d).error_code, (d).error_title, sum((d).messages)
    FROM (SELECT message_stats_delta(1, team_id, created_at, wa_number_id, template_name, sent_group, status, error) AS d
          FROM added WHERE direction = 'OUTBOUND') k
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
  ELSE
    INSERT INTO message_stats_deltas
    SELECT (d).team_id, (d).day, (d).wa_number_id, (d).template_name, (d).sent_group, (d).status, (d).error_code, (d).error_title, sum((d).messages)
    FROM (SELECT message_stats_delta(-1, team_id, created_at, wa_number_id, template_name, sent_group, status, error) AS d
          FROM removed WHERE direction = 'OUTBOUND') k
    GROUP BY 1, 2, 3, 4, 5, 6, 7, 8;
  END IF;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER messages_insert_6_stats_count AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION message_stats_count();

CREATE OR REPLACE TRIGGER messages_delete_3_stats_count AFTER DELETE ON messages
  REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION message_stats_count();
