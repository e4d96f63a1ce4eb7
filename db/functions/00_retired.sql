-- Triggers and functions that no longer exist, dropped before the current ones are created (in the
-- same transaction, so no write falls between the old set and the new one).
--
-- Retired for the write path (docs/write-path.md):
-- - events_notify: pg_notify in every writing transaction took an instance-wide lock at commit,
--   so no two of them could share a disk flush. Processes now tail the log (lib/events/bus.ts).
-- - messages_status_event and the message_stats_apply UPDATE trigger: replaced by the one
--   row-level messages_status_changed (an event row and two append-only stats deltas).
-- - message_stats_apply's in-place upserts (INSERT/DELETE): replaced by message_stats_deltas.
DROP TRIGGER IF EXISTS events_notify ON events;
DROP FUNCTION IF EXISTS events_notify();
DROP TRIGGER IF EXISTS messages_status_event ON messages;
DROP FUNCTION IF EXISTS messages_status_event();
DROP TRIGGER IF EXISTS messages_stats_change ON messages;
DROP TRIGGER IF EXISTS messages_stats_add ON messages;
DROP TRIGGER IF EXISTS messages_stats_remove ON messages;
DROP FUNCTION IF EXISTS message_stats_apply();

-- Retired by migration 0033: the bridge that counted report samples into
-- report_histogram_deltas between that migration and the triggers that now do it beside each sample.
DROP TRIGGER IF EXISTS report_responses_histogram_bridge ON report_responses;
DROP TRIGGER IF EXISTS report_conversation_events_histogram_bridge ON report_conversation_events;
DROP FUNCTION IF EXISTS report_histogram_bridge();

-- Renamed so that each name says when it fires on `messages` (db/functions/README.md): PostgreSQL
-- fires the triggers of one event in alphabetical order of their names, so
-- messages_<event>_<n>_<what> fires n-th. The functions and what they write are unchanged, and so
-- is the order: the old names sorted the same way.
DROP TRIGGER IF EXISTS messages_provider_id_insert ON messages;
DROP TRIGGER IF EXISTS messages_after_insert ON messages;
DROP TRIGGER IF EXISTS messages_conversation_days_add ON messages;
DROP TRIGGER IF EXISTS messages_partition_bounds_insert ON messages;
DROP TRIGGER IF EXISTS messages_report_counts_insert ON messages;
DROP TRIGGER IF EXISTS messages_stats_count_insert ON messages;
DROP TRIGGER IF EXISTS messages_conversation_keys_immutable ON messages;
DROP TRIGGER IF EXISTS messages_partition_bounds_update ON messages;
DROP TRIGGER IF EXISTS messages_provider_id_update ON messages;
DROP TRIGGER IF EXISTS messages_status_changed ON messages;
DROP TRIGGER IF EXISTS messages_conversation_days_remove ON messages;
DROP TRIGGER IF EXISTS messages_report_counts_delete ON messages;
DROP TRIGGER IF EXISTS messages_stats_count_delete ON messages;
