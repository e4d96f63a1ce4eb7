-- The status audit trail is named for what it holds: `message_events` read as a
-- cousin of the live event log `events` and of outgoing webhook "events". A rename keeps every row,
-- id and plan; the sequence, primary key, index and foreign key follow the table's new name. No
-- trigger function writes this table (db/functions): the status path inserts its rows itself.
ALTER TABLE "message_events" RENAME TO "message_status_history";--> statement-breakpoint
ALTER SEQUENCE "message_events_id_seq" RENAME TO "message_status_history_id_seq";--> statement-breakpoint
ALTER TABLE "message_status_history" RENAME CONSTRAINT "message_events_pkey" TO "message_status_history_pkey";--> statement-breakpoint
ALTER TABLE "message_status_history" RENAME CONSTRAINT "message_events_message_fk" TO "message_status_history_message_fk";--> statement-breakpoint
ALTER INDEX "message_events_message_idx" RENAME TO "message_status_history_message_idx";
