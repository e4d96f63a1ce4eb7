-- The history filters team_id, wa_number_id and contact_id together, and contact_id all but
-- determines the other two. Without this the planner multiplies their selectivities, estimates
-- ~1 row for a customer with thousands of messages, and for the streamed history (LIMIT 500)
-- prefers a bitmap scan plus sort over walking messages_history_idx in id order (docs/history.md).
CREATE STATISTICS IF NOT EXISTS "messages_conversation_stats" (dependencies, mcv) ON "team_id", "wa_number_id", "contact_id" FROM "messages";
