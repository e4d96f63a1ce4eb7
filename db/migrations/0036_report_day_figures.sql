CREATE TABLE "report_day_figures" (
	"team_id" integer NOT NULL,
	"wa_number_id" integer NOT NULL,
	"agent_id" integer NOT NULL,
	"day" date NOT NULL,
	"fr_n" integer NOT NULL,
	"fr_p50_lo" double precision,
	"fr_p50_hi" double precision,
	"fr_p90_lo" double precision,
	"fr_p90_hi" double precision,
	"res_n" integer NOT NULL,
	"res_p50_lo" double precision,
	"res_p50_hi" double precision,
	"res_p90_lo" double precision,
	"res_p90_hi" double precision,
	"opened_n" integer NOT NULL,
	CONSTRAINT "report_day_figures_team_id_wa_number_id_agent_id_day_pk" PRIMARY KEY("team_id","wa_number_id","agent_id","day")
);
--> statement-breakpoint
-- Hand-written from here. No histogram row may be written between the backfill's snapshot and the
-- triggers that keep report_day_figures (a fold of a process still on the old code would leave
-- its days stale): writers of report_histograms wait for this transaction, which creates the
-- triggers as db/functions/report_day_figures.sql defines them today (that file is re-applied
-- after the migrations) and then computes every day there is.
LOCK TABLE "report_histograms" IN SHARE MODE;
--> statement-breakpoint
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION report_day_figures_refresh() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_day_figures_refresh_keys(array_agg(team_id), array_agg(wa_number_id), array_agg(agent_id), array_agg(day))
  FROM (SELECT DISTINCT team_id, wa_number_id, agent_id, day FROM changed) k;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE TRIGGER report_histograms_figures_insert AFTER INSERT ON report_histograms
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_day_figures_refresh();
--> statement-breakpoint
CREATE OR REPLACE TRIGGER report_histograms_figures_update AFTER UPDATE ON report_histograms
  REFERENCING NEW TABLE AS changed FOR EACH STATEMENT EXECUTE FUNCTION report_day_figures_refresh();
--> statement-breakpoint
-- Backfill: every day of every level.
SELECT report_day_figures_refresh_keys(array_agg(team_id), array_agg(wa_number_id), array_agg(agent_id), array_agg(day))
FROM (SELECT DISTINCT team_id, wa_number_id, agent_id, day FROM "report_histograms") k;
