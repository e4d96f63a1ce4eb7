"use client";
import type { ReportSummary } from "@/lib/api-client/reports";
import { useI18n, type MessageKey } from "@/lib/i18n";
import { formatNumber } from "@/lib/i18n/numbers-format";
import { formatDuration } from "./format";

type Figures = ReportSummary["totals"];
type Row = { key: string; label: string } & Figures;

const COLUMNS: { key: keyof Figures; label: MessageKey; time?: boolean }[] = [
  { key: "first_responses", label: "rep.firstResponses" },
  { key: "first_response_median", label: "rep.frMedian", time: true },
  { key: "first_response_p90", label: "rep.frP90", time: true },
  { key: "conversations_opened", label: "rep.opened" },
  { key: "conversations_resolved", label: "rep.resolved" },
  { key: "resolution_median", label: "rep.resMedian", time: true },
  { key: "resolution_p90", label: "rep.resP90", time: true },
  { key: "messages_in", label: "rep.in" },
  { key: "messages_out", label: "rep.out" },
];

/**
 * The figures as a table (per day, or per agent), with the totals as its footer: the text
 * behind the charts. Wide, so it scrolls sideways inside a focusable region on narrow screens.
 */
export function FiguresTable({
  caption,
  first,
  rows,
  totals,
  testId,
}: {
  caption: string;
  first: string;
  rows: Row[];
  totals?: Figures;
  testId: string;
}) {
  const { t, locale } = useI18n();
  const cell = (f: Figures, c: (typeof COLUMNS)[number]) =>
    c.time ? formatDuration(f[c.key] as number | null) : formatNumber(f[c.key] as number, locale);
  return (
    <div role="region" aria-label={caption} tabIndex={0} className="overflow-x-auto rounded-lg border border-slate-200 bg-white">
      <table className="w-full text-left text-sm" data-testid={testId}>
        <caption className="sr-only">{caption}</caption>
        <thead>
          <tr className="border-b border-slate-200 text-xs text-slate-700">
            <th scope="col" className="whitespace-nowrap px-3 py-2">
              {first}
            </th>
            {COLUMNS.map((c) => (
              <th key={c.key} scope="col" className="px-3 py-2 text-right">
                {t(c.label)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.key} className="border-b border-slate-100" data-row={r.key}>
              <th scope="row" className="whitespace-nowrap px-3 py-1.5 font-normal">
                {r.label}
              </th>
              {COLUMNS.map((c) => (
                <td
                  key={c.key}
                  className="whitespace-nowrap px-3 py-1.5 text-right tabular-nums"
                  data-col={c.key}
                  data-value={String(r[c.key])}
                >
                  {cell(r, c)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        {totals && (
          <tfoot>
            <tr className="font-semibold" data-row="totals">
              <th scope="row" className="px-3 py-2">
                {t("rep.totals")}
              </th>
              {COLUMNS.map((c) => (
                <td key={c.key} className="whitespace-nowrap px-3 py-2 text-right tabular-nums" data-col={c.key}>
                  {cell(totals, c)}
                </td>
              ))}
            </tr>
          </tfoot>
        )}
      </table>
    </div>
  );
}
