"use client";
import { useState } from "react";
import { useLabels } from "@/lib/api-client/labels";
import { useWaNumbers } from "@/lib/api-client/numbers";
import { useReportAgents, useReportSummary, type ReportParams } from "@/lib/api-client/reports";
import { useI18n } from "@/lib/i18n";
import { Card, ErrorBox, Field, inputClass, PageTitle, SkeletonRows } from "@/components/ui";
import { formatNumber } from "@/lib/i18n/numbers-format";
import { FiguresTable } from "./figures-table";
import { formatDayMonth } from "@/lib/i18n/dates";
import { formatDuration, isoDay } from "./format";
import { TimesChart } from "./times-chart";
import { VolumeChart } from "./volume-chart";
import { DateField } from "@/components/ui/date-field";

/** /reports: a range of UTC days and filters; totals, two charts, and their values per day and per agent. */
export function ReportsPage() {
  const { t, locale } = useI18n();
  const [p, setP] = useState<ReportParams>(() => ({
    from: isoDay(Date.now() - 13 * 86_400_000),
    to: isoDay(Date.now()),
    wa_number: "",
    label_id: "",
    agent_id: "",
  }));
  const set = (k: keyof ReportParams) => (e: { target: { value: string } }) => setP((old) => ({ ...old, [k]: e.target.value }));
  const numbers = useWaNumbers();
  const labels = useLabels();
  const summary = useReportSummary(p);
  // The agent list of the range without the agent filter offers every agent that did something.
  const everyone = useReportAgents({ ...p, agent_id: "" });
  const agents = useReportAgents(p);
  const agentLabel = (id: number, name: string | null) => (id === 0 ? t("rep.noAgent") : (name ?? `#${id}`));
  const totals = summary.data?.totals;

  return (
    <div className="space-y-6">
      <PageTitle>{t("rep.title")}</PageTitle>
      <p className="text-sm text-slate-600">{t("rep.intro")}</p>
      <form className="grid grid-cols-2 gap-3 md:grid-cols-5" onSubmit={(e) => e.preventDefault()} aria-label={t("rep.title")}>
        <Field id="rep-from" label={t("rep.from")}>
          <DateField id="rep-from" value={p.from} onChange={(from) => setP((old) => ({ ...old, from }))} required />
        </Field>
        <Field id="rep-to" label={t("rep.to")}>
          <DateField id="rep-to" value={p.to} onChange={(to) => setP((old) => ({ ...old, to }))} required />
        </Field>
        <Field id="rep-number" label={t("rep.number")}>
          <select id="rep-number" className={inputClass} value={p.wa_number} onChange={set("wa_number")}>
            <option value="">{t("rep.all")}</option>
            {numbers.data?.map((n) => (
              <option key={n.number} value={n.number}>
                {n.display_name ? `${n.display_name} (+${n.number})` : `+${n.number}`}
              </option>
            ))}
          </select>
        </Field>
        <Field id="rep-label" label={t("rep.label")}>
          <select id="rep-label" className={inputClass} value={p.label_id} onChange={set("label_id")}>
            <option value="">{t("rep.allLabels")}</option>
            {labels.data?.map((l) => (
              <option key={l.id} value={l.id}>
                {l.title}
              </option>
            ))}
          </select>
        </Field>
        <Field id="rep-agent" label={t("rep.agent")}>
          <select id="rep-agent" className={inputClass} value={p.agent_id} onChange={set("agent_id")}>
            <option value="">{t("rep.all")}</option>
            {everyone.data?.agents.map((a) => (
              <option key={a.agent_id} value={a.agent_id}>
                {agentLabel(a.agent_id, a.agent_name)}
              </option>
            ))}
          </select>
        </Field>
      </form>

      {summary.error ? (
        <ErrorBox error={summary.error} onRetry={() => summary.refetch()} />
      ) : !summary.data || !totals ? (
        <SkeletonRows rows={6} />
      ) : (
        <>
          <dl className="grid grid-cols-2 gap-3 md:grid-cols-4" data-testid="report-totals">
            {(
              [
                ["rep.frMedian", formatDuration(totals.first_response_median), "fr-median"],
                ["rep.frP90", formatDuration(totals.first_response_p90), "fr-p90"],
                ["rep.resMedian", formatDuration(totals.resolution_median), "res-median"],
                ["rep.opened", formatNumber(totals.conversations_opened, locale), "opened"],
                ["rep.resolved", formatNumber(totals.conversations_resolved, locale), "resolved"],
                ["rep.firstResponses", formatNumber(totals.first_responses, locale), "responses"],
                ["rep.in", formatNumber(totals.messages_in, locale), "in"],
                ["rep.out", formatNumber(totals.messages_out, locale), "out"],
              ] as const
            ).map(([label, value, id]) => (
              // A div, not Card (a section): a <dl> may hold only <div> groups of <dt>/<dd>.
              <div key={id} className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm">
                <dt className="text-xs text-slate-600">{t(label)}</dt>
                <dd className="text-lg font-semibold tabular-nums" data-testid={`total-${id}`}>
                  {value}
                </dd>
              </div>
            ))}
          </dl>
          <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
            <Card>
              <TimesChart days={summary.data.days} />
            </Card>
            <Card>
              <VolumeChart days={summary.data.days} />
            </Card>
          </div>
          <section aria-labelledby="rep-days" className="space-y-2">
            <h2 id="rep-days" className="text-base font-semibold">
              {t("rep.byDay")}
            </h2>
            <FiguresTable
              caption={t("rep.byDay")}
              first={t("rep.day")}
              testId="days-table"
              rows={summary.data.days.map((d) => ({ ...d, key: d.day, label: formatDayMonth(d.day, locale) }))}
              totals={totals}
            />
          </section>
          <section aria-labelledby="rep-agents" className="space-y-2">
            <h2 id="rep-agents" className="text-base font-semibold">
              {t("rep.byAgent")}
            </h2>
            {agents.error ? (
              <ErrorBox error={agents.error} onRetry={() => agents.refetch()} />
            ) : (
              <FiguresTable
                caption={t("rep.byAgent")}
                first={t("rep.agent")}
                testId="agents-table"
                rows={(agents.data?.agents ?? []).map((a) => ({
                  ...a,
                  key: String(a.agent_id),
                  label: agentLabel(a.agent_id, a.agent_name),
                }))}
              />
            )}
          </section>
        </>
      )}
    </div>
  );
}
