-- "Needs reply" lists (the last message is the customer's) read this partial index instead of
-- walking the team's activity index past every answered conversation (after a broadcast, most).
CREATE INDEX "conversations_needs_reply_idx" ON "conversations" USING btree ("team_id","last_message_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE last_direction = 'INBOUND';