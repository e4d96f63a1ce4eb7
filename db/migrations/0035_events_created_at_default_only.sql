-- Every status change writes an events row, so each index of the log is paid once per status
-- (the status write ratio, bench scenario 12). `created_at` is read only to delete rows by age, and since 0032 that
-- happens only in the default partition: a day's partition is dropped whole, and so is the legacy
-- one (its bound is a day too). So the index moves from the whole log to that one partition.
-- Dropping the partitioned index drops its copies on every partition.
DROP INDEX "events_created_at_idx";--> statement-breakpoint
CREATE INDEX "events_default_age_idx" ON "events_default" USING btree ("created_at");
