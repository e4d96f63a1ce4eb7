"use client";
import { Bar, BarChart, CartesianGrid, Cell, LabelList, ResponsiveContainer, XAxis, YAxis } from "recharts";
import type { BroadcastCounts } from "@/lib/api-client/types";
import { useI18n } from "@/lib/i18n";
import { funnelOf, messagesOf } from "@/lib/broadcasts/counts";
import { formatNumber } from "@/lib/i18n/numbers-format";
import { STAGE_COLORS } from "./colors";

/**
 * The delivery funnel: queued → sent → delivered → read → replied, failures beside them. The
 * drawing is decorative for assistive technology (aria-hidden); the table next to it carries the
 * same values as text, visible to everyone.
 */
export function FunnelChart({ counts }: { counts: BroadcastCounts }) {
  const { t, locale } = useI18n();
  const total = messagesOf(counts);
  const data = funnelOf(counts).map((bar) => ({ ...bar, label: t(`bc.funnel.${bar.stage}`) }));
  const share = (n: number) => formatNumber(total === 0 ? 0 : (n / total) * 100, locale, { maximumFractionDigits: 1 });
  return (
    <figure className="grid grid-cols-1 gap-4 md:grid-cols-[minmax(0,1fr)_16rem]" aria-labelledby="funnel-title" data-testid="funnel">
      <figcaption className="md:col-span-2">
        <h2 id="funnel-title" className="text-base font-semibold">
          {t("bc.funnel")}
        </h2>
        <p className="text-xs text-slate-600">{t("bc.funnel.desc")}</p>
      </figcaption>
      <div aria-hidden="true" className="h-64 min-w-0">
        <ResponsiveContainer width="100%" height="100%">
          <BarChart data={data} margin={{ top: 20, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
            <CartesianGrid vertical={false} stroke="#e2e8f0" />
            <XAxis dataKey="label" tick={{ fontSize: 11, fill: "#334155" }} interval={0} />
            <YAxis allowDecimals={false} tick={{ fontSize: 11, fill: "#334155" }} width={40} />
            <Bar dataKey="value" isAnimationActive={false} radius={[4, 4, 0, 0]}>
              {data.map((d) => (
                <Cell key={d.stage} fill={STAGE_COLORS[d.stage]} />
              ))}
              <LabelList dataKey="value" position="top" style={{ fontSize: 12, fill: "#0f172a" }} />
            </Bar>
          </BarChart>
        </ResponsiveContainer>
      </div>
      <table className="self-start text-left text-sm" data-testid="funnel-table">
        <caption className="sr-only">{t("bc.funnel")}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-xs text-slate-700">
            <th scope="col" className="py-1 pr-2">
              {t("bc.funnel.stage")}
            </th>
            <th scope="col" className="py-1 pr-2 text-right">
              {t("bc.funnel.count")}
            </th>
            <th scope="col" className="py-1 text-right">
              {t("bc.funnel.share")}
            </th>
          </tr>
        </thead>
        <tbody>
          {data.map((d) => (
            <tr key={d.stage} className="border-b border-slate-100" data-stage={d.stage}>
              <th scope="row" className="py-1 pr-2 font-normal">
                <span
                  aria-hidden="true"
                  className="mr-2 inline-block h-2.5 w-2.5 rounded-sm"
                  style={{ backgroundColor: STAGE_COLORS[d.stage] }}
                />
                {d.label}
              </th>
              <td className="py-1 pr-2 text-right tabular-nums" data-testid={`funnel-${d.stage}`} data-value={d.value}>
                {formatNumber(d.value, locale)}
              </td>
              <td className="py-1 text-right tabular-nums">{share(d.value)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
