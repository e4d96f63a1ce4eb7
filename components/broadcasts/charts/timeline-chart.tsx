"use client";
import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { TimelinePoint } from "@/lib/api-client/types";
import type { Bucket } from "@/lib/api-client/broadcasts";
import { useI18n } from "@/lib/i18n";
import { EmptyState } from "@/components/ui";
import { formatDateTime, formatDayMonthTime, formatTime } from "@/lib/i18n/dates";
import { formatNumber } from "@/lib/i18n/numbers-format";
import { STAGE_COLORS } from "./colors";

const SERIES = ["sent", "delivered", "read", "failed"] as const;

/** Sends over time, one line per status reached; a visually hidden table holds the same values as text. */
export function TimelineChart({ points, bucket }: { points: TimelinePoint[]; bucket: Bucket }) {
  const { t, locale } = useI18n();
  const when = (iso: string) => (bucket === "minute" ? formatTime(iso, locale) : formatDayMonthTime(iso, locale));
  if (points.length === 0) return <EmptyState>{t("bc.timeline.empty")}</EmptyState>;
  const data = points.map((p) => ({ ...p, label: when(p.at) }));
  return (
    <>
      <div aria-hidden="true" className="h-64 min-w-0">
        <ResponsiveContainer width="100%" height="100%">
          <LineChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={{ fontSize: 11, fill: "#334155" }} minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: "#334155" }} width={40} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {SERIES.map((s) => (
              <Line
                key={s}
                type="monotone"
                dataKey={s}
                name={t(`bc.timeline.${s}`)}
                stroke={STAGE_COLORS[s]}
                strokeWidth={2}
                dot={false}
                isAnimationActive={false}
              />
            ))}
          </LineChart>
        </ResponsiveContainer>
      </div>
      {/* The chart's numbers as text. sr-only goes on a wrapper: a table ignores width: 1px and
          keeps its content's width, so as the sr-only element itself it stuck 150 px out of a
          390 px page; the 1 px wrapper clips it. */}
      <div className="sr-only">
        <table data-testid="timeline-table">
          <caption>{t("bc.timeline")}</caption>
          <thead>
            <tr>
              <th scope="col">{t("bc.timeline.at")}</th>
              {SERIES.map((s) => (
                <th key={s} scope="col">
                  {t(`bc.timeline.${s}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {points.map((p) => (
              <tr key={p.at}>
                <th scope="row">{formatDateTime(p.at, locale)}</th>
                {SERIES.map((s) => (
                  <td key={s}>{formatNumber(p[s], locale)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </>
  );
}
