-- The reports' per-day figures (report_day_figures, db/schema/reports.ts): for each key of
-- report_histograms' days (team, number level, agent level, day), each time metric's sample count
-- and the values at the ranks of its median and p90, and the openings, computed from that day's
-- buckets exactly as lib/reports/repo.ts computes them for a range (same types, same arithmetic:
-- a day read here equals the day read from its buckets). Kept by triggers on report_histograms,
-- so whatever writes histogram rows (the fold, the bench's load, a migration) refreshes the days
-- it touched in the same statement and transaction; a report reads a day from here unless that
-- day has histogram deltas not folded yet.
--
-- Refreshes the given keys (arrays of one length, one key per index; repeats are fine) from
-- report_histograms. Upserts in key order, so two refreshes never deadlock (only the histogram
-- fold and a load write histograms, and the fold runs one at a time).
CREATE OR REPLACE FUNCTION report_day_figures_refresh_keys(teams integer[], numbers integer[], agents integer[], days date[])
RETURNS void LANGUAGE sql AS $$
  WITH k AS (
    SELECT DISTINCT team_id, wa_number_id, agent_id, day FROM unnest(teams, numbers, agents, days) AS k(team_id, wa_number_id, agent_id, day)
  ), c AS (
    SELECT h.team_id, h.wa_number_id, h.agent_id, h.day, h.metric, h.seconds::float8 / h.samples::int4 AS mean,
      sum(h.samples::int4) OVER (PARTITION BY h.team_id, h.wa_number_id, h.agent_id, h.day, h.metric ORDER BY h.bucket) AS upto,
      sum(h.samples::int4) OVER (PARTITION BY h.team_id, h.wa_number_id, h.agent_id, h.day, h.metric) AS total
    FROM k JOIN report_histograms h USING (team_id, wa_number_id, agent_id, day)
  ), t AS (
    SELECT team_id, wa_number_id, agent_id, day, metric, max(total)::int4 AS n,
      min(mean) FILTER (WHERE upto > floor(0.5::float8 * (total - 1)::float8)) AS p50_lo,
      min(mean) FILTER (WHERE upto > ceil(0.5::float8 * (total - 1)::float8)) AS p50_hi,
      min(mean) FILTER (WHERE upto > floor(0.9::float8 * (total - 1)::float8)) AS p90_lo,
      min(mean) FILTER (WHERE upto > ceil(0.9::float8 * (total - 1)::float8)) AS p90_hi
    FROM c GROUP BY 1, 2, 3, 4, 5
  )
  INSERT INTO report_day_figures AS f (team_id, wa_number_id, agent_id, day,
    fr_n, fr_p50_lo, fr_p50_hi, fr_p90_lo, fr_p90_hi, res_n, res_p50_lo, res_p50_hi, res_p90_lo, res_p90_hi, opened_n)
  SELECT team_id, wa_number_id, agent_id, day,
    coalesce(max(n) FILTER (WHERE metric = 'first_response'), 0), max(p50_lo) FILTER (WHERE metric = 'first_response'),
    max(p50_hi) FILTER (WHERE metric = 'first_response'), max(p90_lo) FILTER (WHERE metric = 'first_response'),
    max(p90_hi) FILTER (WHERE metric = 'first_response'),
    coalesce(max(n) FILTER (WHERE metric = 'resolution'), 0), max(p50_lo) FILTER (WHERE metric = 'resolution'),
    max(p50_hi) FILTER (WHERE metric = 'resolution'), max(p90_lo) FILTER (WHERE metric = 'resolution'),
    max(p90_hi) FILTER (WHERE metric = 'resolution'),
    coalesce(max(n) FILTER (WHERE metric = 'opened'), 0)
  FROM t GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 3, 4
  ON CONFLICT (team_id, wa_number_id, agent_id, day) DO UPDATE SET
    fr_n = EXCLUDED.fr_n, fr_p50_lo = EXCLUDED.fr_p50_lo, fr_p50_hi = EXCLUDED.fr_p50_hi, fr_p90_lo = EXCLUDED.fr_p90_lo,
    fr_p90_hi = EXCLUDED.fr_p90_hi, res_n = EXCLUDED.res_n, res_p50_lo = EXCLUDED.res_p50_lo, res_p50_hi = EXCLUDED.res_p50_hi,
    res_p90_lo = EXCLUDED.res_p90_lo, res_p90_hi = EXCLUDED.res_p90_hi, opened_n = EXCLUDED.opened_n
$$;

-- The trigger: the keys of the histogram rows a statement inserted or updated. Two triggers, as a
-- trigger with transition tables takes one event; the fold's upsert fires both, and a key in both
-- is refreshed twice (each time from the whole statement's result, so alike).
CREATE OR REPLACE FUNCTION report_day_figures_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_day_figures_refresh_keys(array_agg(team_id), array_agg(wa_number_id), array_agg(agent_id), array_agg(day))
  FROM (SELECT DISTINCT team_id, wa_number_id, agent_id, day FROM changed) k;
  RETURN NULL;
END $$;

CREATE OR REPLACE TRIGGER report_histograms_figures_insert AFTER INSERT ON report_histograms
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_day_figures_refresh();

CREATE OR REPLACE TRIGGER report_histograms_figures_update AFTER UPDATE ON report_histograms
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_day_figures_refresh();
