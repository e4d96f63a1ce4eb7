-- What inserting messages sets off besides the rollups (conversation_days.sql, message_stats_count.sql):
-- 1. each conversation (team, number, contact) gets its row written or brought up to date: last
--    message shown, activity time, last inbound message, unread count, reopened by a new customer
--    message (DESIGN section 14: listing never scans messages). Its key is one customer, so only
--    writers of the same customer ever share the row (not a hot row: DESIGN section 13).
-- 2. each message is announced on the event log as `message.created` — except a broadcast's: a
--    100,000-recipient broadcast would push 100,000 events through every open dashboard stream
--    within seconds. Its progress is announced as `broadcast.updated` (lib/broadcasts/progress.ts).
-- Statement-level with a transition table: a bulk insert of 1,000 rows is one upsert and one insert here.
CREATE OR REPLACE FUNCTION messages_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO conversations AS c (team_id, wa_number_id, contact_id, last_message_id, last_message_created_at, last_message_at,
      last_direction, last_inbound_at, last_inbound_message_id, unread_count, status, updated_at)
  SELECT l.team_id, l.wa_number_id, l.contact_id, l.id, l.created_at, clock_timestamp(), l.direction, i.created_at, i.id,
    coalesce(i.n, 0), 'open', now()
  FROM (SELECT DISTINCT ON (team_id, wa_number_id, contact_id) team_id, wa_number_id, contact_id, id, created_at, direction
        FROM added ORDER BY team_id, wa_number_id, contact_id, created_at DESC, id DESC) l
  LEFT JOIN (SELECT DISTINCT ON (team_id, wa_number_id, contact_id) team_id, wa_number_id, contact_id, id, created_at,
               count(*) OVER (PARTITION BY team_id, wa_number_id, contact_id) AS n
             FROM added WHERE direction = 'INBOUND' ORDER BY team_id, wa_number_id, contact_id, created_at DESC, id DESC) i
    USING (team_id, wa_number_id, contact_id)
  ORDER BY 1, 2, 3
  ON CONFLICT (team_id, wa_number_id, contact_id) DO UPDATE SET
    -- The shown last message is the newest by its own time; the list's order is by activity (when
    -- it was stored), since inbound times come from the provider in whole seconds.
    last_message_id = CASE WHEN (EXCLUDED.last_message_created_at, EXCLUDED.last_message_id) >= (c.last_message_created_at, c.last_message_id)
      THEN EXCLUDED.last_message_id ELSE c.last_message_id END,
    last_direction = CASE WHEN (EXCLUDED.last_message_created_at, EXCLUDED.last_message_id) >= (c.last_message_created_at, c.last_message_id)
      THEN EXCLUDED.last_direction ELSE c.last_direction END,
    last_message_created_at = greatest(c.last_message_created_at, EXCLUDED.last_message_created_at),
    last_message_at = greatest(c.last_message_at, EXCLUDED.last_message_at),
    last_inbound_message_id = CASE WHEN EXCLUDED.last_inbound_at IS NOT NULL AND (c.last_inbound_at IS NULL OR EXCLUDED.last_inbound_at >= c.last_inbound_at)
      THEN EXCLUDED.last_inbound_message_id ELSE c.last_inbound_message_id END,
    last_inbound_at = greatest(c.last_inbound_at, EXCLUDED.last_inbound_at),
    unread_count = c.unread_count + EXCLUDED.unread_count,
    -- A new customer message reopens a resolved conversation.
    status = CASE WHEN EXCLUDED.unread_count > 0 THEN 'open' ELSE c.status END,
    updated_at = now();

  INSERT INTO events (team_id, type, wa_number_id, contact_id, data)
  SELECT a.team_id, 'message.created', a.wa_number_id, a.contact_id,
    jsonb_build_object('id', a.id, 'update_id', a.update_id, 'wa_number', n.number, 'contact_id', a.contact_id,
      'direction', a.direction, 'type', a.type, 'status', a.status,
      'created_at', to_char(a.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
  FROM added a JOIN wa_numbers n ON n.id = a.wa_number_id
  WHERE a.broadcast_id IS NULL
  ORDER BY a.id;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER messages_after_insert AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION messages_after_insert();
