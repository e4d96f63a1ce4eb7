-- What inserting messages sets off besides the rollups (conversation_days.sql, message_stats_count.sql):
-- 1. each conversation (team, number, contact) gets its row written or brought up to date: last
--    message shown, activity time, last inbound message, unread count, reopened by a new customer
--    message (listing never scans messages: docs/architecture.md). Its key is one customer, so only
--    writers of the same customer ever share the row (not a hot row: docs/write-path.md).
--    It also keeps waiting_since (the customer's first unanswered message) and appends one
--    report_responses row per first response (docs/features/reports.md), also counted in its
--    time bucket in report_histogram_deltas (report_seconds_bucket.sql): an OUTBOUND message of
--    an agent or the API (sender AGENT or SYSTEM, not a broadcast's) answers whatever waits.
--    Messages are taken in id order (arrival), several exchanges in one statement included. The
--    existing rows are locked first, in key order as the upsert locks them, so waiting_since is
--    read as the last writer left it. A reopened conversation restarts its resolution time
--    (opened_at) at the customer's message; reports_conversation_events.sql records it. The first
--    answer of an opening is kept as first_response_seconds (conversation_clocks.sql clears it
--    on a reopening).
-- 2. each message is announced on the event log as `message.created` — except a broadcast's: a
--    100,000-recipient broadcast would push 100,000 events through every open dashboard stream
--    within seconds. Its progress is announced as `broadcast.updated` (lib/broadcasts/announce.ts).
-- Statement-level with a transition table: a bulk insert of 1,000 rows is one upsert and one insert here.
CREATE OR REPLACE FUNCTION messages_after_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH cur AS (
    SELECT c.team_id, c.wa_number_id, c.contact_id, c.waiting_since
    FROM conversations c
    WHERE (c.team_id, c.wa_number_id, c.contact_id) IN (SELECT team_id, wa_number_id, contact_id FROM added)
    ORDER BY 1, 2, 3 FOR UPDATE
  ), ev AS (
    -- grp: how many answers came before this message in the statement; a segment (key, grp) is
    -- customer messages then at most one answer, which closes it.
    SELECT team_id, wa_number_id, contact_id, created_at, agent_id, direction = 'INBOUND' AS inbound,
      count(*) FILTER (WHERE direction = 'OUTBOUND') OVER (PARTITION BY team_id, wa_number_id, contact_id ORDER BY id
        ROWS BETWEEN UNBOUNDED PRECEDING AND 1 PRECEDING) AS grp
    FROM added
    WHERE direction = 'INBOUND' OR (sender IN ('AGENT', 'SYSTEM') AND broadcast_id IS NULL)
  ), seg AS (
    SELECT s.team_id, s.wa_number_id, s.contact_id, s.grp,
      -- The first segment continues what was already waiting before this statement.
      CASE WHEN s.grp = 0 THEN coalesce(cur.waiting_since, s.first_in) ELSE s.first_in END AS waiting_since,
      s.answered_at, s.agent_id
    FROM (SELECT team_id, wa_number_id, contact_id, grp,
            min(created_at) FILTER (WHERE inbound) AS first_in,
            min(created_at) FILTER (WHERE NOT inbound) AS answered_at,
            min(agent_id) FILTER (WHERE NOT inbound) AS agent_id
          FROM ev GROUP BY 1, 2, 3, 4) s
    LEFT JOIN cur USING (team_id, wa_number_id, contact_id)
  ), answered AS (
    INSERT INTO report_responses (team_id, day, wa_number_id, contact_id, agent_id, seconds)
    SELECT team_id, (answered_at AT TIME ZONE 'UTC')::date, wa_number_id, contact_id, agent_id,
      greatest(0, round(extract(epoch FROM answered_at - waiting_since)))::int
    FROM seg WHERE answered_at IS NOT NULL AND waiting_since IS NOT NULL
    RETURNING team_id, day, wa_number_id, agent_id, seconds
  ), answered_histogram AS (
    -- The same samples counted per time bucket at the four levels of report_histograms, appended
    -- (a day's histogram row is shared by every writer of the team: never updated here, folded
    -- later by lib/reports/repo.ts).
    INSERT INTO report_histogram_deltas (team_id, day, wa_number_id, agent_id, metric, bucket, samples, seconds)
    SELECT a.team_id, a.day, l.wa_number_id, l.agent_id, 'first_response', report_seconds_bucket(a.seconds), count(*), sum(a.seconds)
    FROM answered a
    CROSS JOIN LATERAL (VALUES (a.wa_number_id, a.agent_id), (a.wa_number_id, -1), (0, a.agent_id), (0, -1)) l(wa_number_id, agent_id)
    GROUP BY 1, 2, 3, 4, 5, 6
  ), first_answer AS (
    -- The statement's first answer per key: the conversation's first response when it had none
    -- (first_response_seconds, shown in the inbox's contact panel).
    SELECT DISTINCT ON (team_id, wa_number_id, contact_id) team_id, wa_number_id, contact_id,
      greatest(0, round(extract(epoch FROM answered_at - waiting_since)))::int AS seconds
    FROM seg WHERE answered_at IS NOT NULL AND waiting_since IS NOT NULL
    ORDER BY team_id, wa_number_id, contact_id, grp
  ), waiting AS (
    -- After the statement: nothing waits if its last segment was answered.
    SELECT DISTINCT ON (team_id, wa_number_id, contact_id) team_id, wa_number_id, contact_id,
      CASE WHEN answered_at IS NULL THEN waiting_since END AS waiting_since
    FROM seg ORDER BY team_id, wa_number_id, contact_id, grp DESC
  )
  INSERT INTO conversations AS c (team_id, wa_number_id, contact_id, last_message_id, last_message_created_at, last_message_at,
      last_direction, last_inbound_at, last_inbound_message_id, unread_count, status, updated_at, waiting_since, opened_at,
      first_response_seconds)
  SELECT l.team_id, l.wa_number_id, l.contact_id, l.id, l.created_at, clock_timestamp(), l.direction, i.created_at, i.id,
    coalesce(i.n, 0), 'open', now(),
    -- Keys with no customer message and no answer here keep what waited (the locked row's value).
    CASE WHEN w.team_id IS NULL THEN cur.waiting_since ELSE w.waiting_since END, l.first_at, fa.seconds
  FROM (SELECT DISTINCT ON (team_id, wa_number_id, contact_id) team_id, wa_number_id, contact_id, id, created_at, direction,
          min(created_at) OVER (PARTITION BY team_id, wa_number_id, contact_id) AS first_at
        FROM added ORDER BY team_id, wa_number_id, contact_id, created_at DESC, id DESC) l
  LEFT JOIN (SELECT DISTINCT ON (team_id, wa_number_id, contact_id) team_id, wa_number_id, contact_id, id, created_at,
               count(*) OVER (PARTITION BY team_id, wa_number_id, contact_id) AS n
             FROM added WHERE direction = 'INBOUND' ORDER BY team_id, wa_number_id, contact_id, created_at DESC, id DESC) i
    USING (team_id, wa_number_id, contact_id)
  LEFT JOIN waiting w USING (team_id, wa_number_id, contact_id)
  LEFT JOIN cur USING (team_id, wa_number_id, contact_id)
  LEFT JOIN first_answer fa USING (team_id, wa_number_id, contact_id)
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
    opened_at = CASE WHEN EXCLUDED.unread_count > 0 AND c.status = 'resolved' THEN EXCLUDED.last_inbound_at ELSE c.opened_at END,
    waiting_since = EXCLUDED.waiting_since,
    -- The first answer of the opening stays; a reopening (conversation_clocks.sql) starts with
    -- this statement's answer, if any.
    first_response_seconds = CASE WHEN EXCLUDED.unread_count > 0 AND c.status = 'resolved' THEN EXCLUDED.first_response_seconds
      ELSE coalesce(c.first_response_seconds, EXCLUDED.first_response_seconds) END,
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

-- Six AFTER INSERT triggers on messages, named messages_insert_<n>_<what> so that the name says
-- the order they fire in (alphabetical, PostgreSQL's rule; the row-level one first in any case):
-- the table is db/functions/README.md. They stay six, each in the file of what it keeps, rather
-- than one function with a block per effect: a rename costs nothing at run time, while a merge
-- would save at most four statement-level trigger calls per INSERT (the transition table is built
-- once and shared) and put six rollups' SQL in one file. That gain could not be measured reliably
-- on the shared bench machine (2 cores, load near 20), so the zero-cost rename was kept. Status
-- writes (bench scenario 12) fire none of these: they are UPDATEs. The row-level provider id claim (message_provider_ids.sql) cannot join a statement-level
-- function anyway: it must fail the very row that reuses a provider id.
CREATE OR REPLACE TRIGGER messages_insert_2_conversations AFTER INSERT ON messages
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION messages_after_insert();
