-- The history's total_items sums a window's whole days from conversation_days (docs/history.md,
-- "The count's rollup"); with `messages` in its primary key's index that sum is read index-only
-- (hand-written: drizzle-kit cannot express INCLUDE). One conversation's days are neighbours in
-- the key but not in the heap: a day's row is written when that day's first message comes, among
-- every other conversation's. On the bench's 50 M set (49 M day rows, larger than the machine's
-- memory with the rest) an ordinary customer's 30-day sum read 8.6 pages from outside shared
-- buffers and took 0.104 ms; index-only, 1.1 pages and 0.034 ms (bench/log/2026-11-28-50m-sixth-run.md). The price: a message's upsert of its day no longer updates in place (HOT), so busy
-- days leave dead index entries for vacuum; the upsert's own rate did not move (pgbench, 16
-- connections: 13,550 against 13,340 commits/s). The key is rebuilt under an exclusive lock:
-- 55 s for the 49 M rows of the 50 M set, during which writes of messages wait.
ALTER TABLE "conversation_days" DROP CONSTRAINT "conversation_days_team_id_wa_number_id_contact_id_day_pk";--> statement-breakpoint
ALTER TABLE "conversation_days" ADD CONSTRAINT "conversation_days_team_id_wa_number_id_contact_id_day_pk"
  PRIMARY KEY ("team_id","wa_number_id","contact_id","day") INCLUDE ("messages");
