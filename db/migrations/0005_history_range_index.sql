-- total_items of a history page counts one conversation's messages in a date range. Through
-- messages_history_idx the range is only a filter on its INCLUDE column, so the count walks the
-- customer's whole conversation (200,000 entries for the bench's heavy customer, 16,400 in range).
-- Keyed on created_at, the same count reads only the range, index-only
-- (bench/log/2026-11-22-findings.md, finding 2: 13-25 ms -> 0.4-0.9 ms per count on the quick data set).
CREATE INDEX IF NOT EXISTS "messages_history_range_idx" ON "messages" USING btree ("team_id","wa_number_id","contact_id","created_at") INCLUDE ("id");
