-- The message_stats key of one OUTBOUND message with a signed count, as a message_stats row (its
-- `messages` column is the count): UTC day, number, template name and sent_group ('' when absent),
-- status and, for FAILED, the provider's error code (0 when absent or not a plain integer) and
-- title (200 characters at most, so the key always fits a btree entry). IMMUTABLE: also used by
-- migration 0017's backfill and the bench's one-statement build.
-- Used by: message_stats_count.sql, messages_status_changed.sql (whose common case writes the same
-- key inline, as VALUES: keep the two alike), lib/messages/stats-service.ts.
CREATE OR REPLACE FUNCTION message_stats_error_code(status text, error jsonb) RETURNS bigint LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status = 'FAILED' AND jsonb_typeof(error -> 'code') = 'number'
                   AND (error ->> 'code') ~ '^-?[0-9]{1,15}$' THEN (error ->> 'code')::bigint ELSE 0 END
$$;

CREATE OR REPLACE FUNCTION message_stats_error_title(status text, error jsonb) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE WHEN status = 'FAILED' THEN left(coalesce(error ->> 'title', ''), 200) ELSE '' END
$$;

CREATE OR REPLACE FUNCTION message_stats_delta(n integer, team_id integer, created_at timestamptz, wa_number_id integer,
  template_name text, sent_group text, status text, error jsonb) RETURNS message_stats LANGUAGE sql IMMUTABLE AS $$
  SELECT ROW(team_id, (created_at AT TIME ZONE 'UTC')::date, wa_number_id, coalesce(template_name, ''), coalesce(sent_group, ''),
    status, message_stats_error_code(status, error), message_stats_error_title(status, error), n)::message_stats
$$;
