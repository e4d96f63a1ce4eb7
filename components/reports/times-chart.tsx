"use client";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ReportSummary } from "@/lib/api-client/reports";
import { useI18n } from "@/lib/i18n";
import { formatDayMonth } from "@/lib/i18n/dates";

const COLORS = { median: "#128c7e", p90: "#b45309" };

/**
 * First response time per day (median and p90, minutes). The drawing is hidden from assistive
 * technology: the per-day table below it carries the same values as text (docs/architecture.md, "Libraries, and why").
 */
export function TimesChart({ days }: { days: ReportSummary["days"] }) {
  const { t, locale } = useI18n();
  const minutes = (s: number | null) => (s == null ? null : Math.round(s / 6) / 10);
  const data = days.map((d) => ({
    label: formatDayMonth(d.day, locale),
    median: minutes(d.first_response_median),
    p90: minutes(d.first_response_p90),
  }));
  return (
    <figure aria-labelledby="rep-times-title" className="min-w-0" data-testid="times-chart">
      <figcaption>
        <h2 id="rep-times-title" className="text-base font-semibold">
          {t("rep.timesChart")}
        </h2>
        <p className="text-xs text-slate-600">{t("rep.timesChart.desc")}</p>
      </figcaption>
      <div aria-hidden="true" className="mt-2 h-56 min-w-0">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={{ fontSize: 11, fill: "#334155" }} minTickGap={16} />
            <YAxis tick={{ fontSize: 11, fill: "#334155" }} width={44} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            <Line
              type="linear"
              dataKey="median"
              name={t("rep.frMedian")}
              stroke={COLORS.median}
              strokeWidth={2}
              connectNulls
              isAnimationActive={false}
            />
            <Line
              type="linear"
              dataKey="p90"
              name={t("rep.frP90")}
              stroke={COLORS.p90}
              strokeWidth={2}
              connectNulls
              isAnimationActive={false}
            />
          </LineChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
