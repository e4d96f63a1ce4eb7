-- Every event the log takes (db/schema/events.ts), from any writer — the triggers on messages and
-- contact_labels as much as lib/events/repo.ts insertEvents — is queued for each of the team's
-- enabled webhook endpoints subscribed to its type, in the same statement and transaction: the
-- delivery exists exactly when the event does, so a commit loses none and a rollback sends none
-- (docs/features/outgoing-webhooks.md). One statement-level trigger, one set-based INSERT: a
-- statement writing a thousand status events does one join, and a team with no endpoints finds
-- none through the partial index on enabled endpoints. The URL is read again at send time
-- (lib/outgoing-webhooks/deliver.ts), so an endpoint's new URL applies to what is still queued.
CREATE OR REPLACE FUNCTION webhook_endpoints_fan_out() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO webhook_deliveries (team_id, target_kind, target_id, url, event, payload)
  SELECT e.team_id, 'endpoint', w.id, w.url, e.type,
         jsonb_build_object(
           'event', e.type,
           'event_id', e.id,
           'occurred_at', to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
           'data', e.data)
  FROM added e
  JOIN webhook_endpoints w
    ON w.team_id = e.team_id AND w.enabled AND ('*' = ANY (w.events) OR e.type = ANY (w.events))
  ORDER BY e.xact_id, e.id, w.id;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER events_webhook_endpoints_fan_out AFTER INSERT ON events
  REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION webhook_endpoints_fan_out();
