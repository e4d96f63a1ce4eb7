-- History reads (GET /api/v1/messages/whatsapp/history) walk one conversation by id.
-- INCLUDE (created_at) makes both the page and its total_items count index-only
-- (docs/history.md: 147 ms -> 10 ms per count for a customer with 17,000 messages in range).
CREATE INDEX IF NOT EXISTS "messages_history_idx" ON "messages" USING btree ("team_id","wa_number_id","contact_id","id") INCLUDE ("created_at");
