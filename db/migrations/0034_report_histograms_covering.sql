-- The reports' histograms read index-only (hand-written: drizzle-kit cannot express INCLUDE). A
-- report reads one level's days, a tight range of this key, but their rows lie scattered over
-- the heap (a day's buckets are written as they first occur, and the fold updates them in place):
-- on the bench's set a 30-day summary visited 237 heap pages for 361 rows. With the counts in the
-- key's index the read is a few leaf pages (bench/log/2026-11-26-report-and-list-time.md). One index, not a second
-- one beside the key: the fold's upserts change samples and seconds, so they update an index either way.
ALTER TABLE "report_histograms" DROP CONSTRAINT "report_histograms_team_id_wa_number_id_agent_id_day_metric_bucket_pk";--> statement-breakpoint
ALTER TABLE "report_histograms" ADD CONSTRAINT "report_histograms_team_id_wa_number_id_agent_id_day_metric_bucket_pk"
  PRIMARY KEY ("team_id","wa_number_id","agent_id","day","metric","bucket") INCLUDE ("samples","seconds");
