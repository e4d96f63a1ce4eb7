"use client";
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { ReportSummary } from "@/lib/api-client/reports";
import { useI18n, type MessageKey } from "@/lib/i18n";
import { formatDayMonth } from "@/lib/i18n/dates";

const SERIES: {
  key: "conversations_opened" | "conversations_resolved" | "messages_in" | "messages_out";
  label: MessageKey;
  color: string;
}[] = [
  { key: "conversations_opened", label: "rep.opened", color: "#0369a1" },
  { key: "conversations_resolved", label: "rep.resolved", color: "#15803d" },
  { key: "messages_in", label: "rep.in", color: "#7c3aed" },
  { key: "messages_out", label: "rep.out", color: "#c2410c" },
];

/** Conversations and messages per day; aria-hidden, the per-day table holds the same values as text. */
export function VolumeChart({ days }: { days: ReportSummary["days"] }) {
  const { t, locale } = useI18n();
  const data = days.map((d) => ({ ...d, label: formatDayMonth(d.day, locale) }));
  return (
    <figure aria-labelledby="rep-volume-title" className="min-w-0" data-testid="volume-chart">
      <figcaption>
        <h2 id="rep-volume-title" className="text-base font-semibold">
          {t("rep.volumeChart")}
        </h2>
        <p className="text-xs text-slate-600">{t("rep.volumeChart.desc")}</p>
      </figcaption>
      <div aria-hidden="true" className="mt-2 h-56 min-w-0">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 8, right: 12, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={{ fontSize: 11, fill: "#334155" }} minTickGap={16} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: "#334155" }} width={40} />
            <Tooltip />
            <Legend wrapperStyle={{ fontSize: 12 }} />
            {SERIES.map((s) => (
              <Bar key={s.key} dataKey={s.key} name={t(s.label)} fill={s.color} isAnimationActive={false} />
            ))}
          </BarChart>
        </ResponsiveContainer>
      </div>
    </figure>
  );
}
