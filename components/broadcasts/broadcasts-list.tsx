"use client";
import { useState } from "react";
import Link from "next/link";
import { useBroadcasts } from "@/lib/api-client/broadcasts";
import { useLiveEvents } from "@/lib/api-client/live-stream";
import type { Broadcast } from "@/lib/api-client/types";
import { useI18n } from "@/lib/i18n";
import { EmptyState, ErrorBox, PageTitle, SkeletonRows } from "@/components/ui";
import { Pager } from "@/components/ui/pager";
import { BroadcastStatusBadge } from "./status-badge";
import { ProgressBar } from "./progress-bar";
import { progressOf } from "@/lib/broadcasts/counts";
import { formatDateTime } from "@/lib/i18n/dates";
import { formatNumber } from "@/lib/i18n/numbers-format";
import { TemplateName } from "@/components/templates/template-name";

/** Every broadcast of the team, newest first; counts and statuses move live from the event stream. */
export function BroadcastsList() {
  const { t } = useI18n();
  const [page, setPage] = useState(1);
  const list = useBroadcasts(page);
  useLiveEvents();
  const pg = list.data?.pagination;

  return (
    <>
      <PageTitle
        actions={
          <Link
            href="/broadcasts/new"
            className="rounded-md bg-wa-green px-3 py-2 text-sm font-medium text-white hover:bg-wa-green-dark"
            data-testid="new-broadcast"
          >
            {t("bc.new")}
          </Link>
        }
      >
        {t("bc.title")}
      </PageTitle>
      {list.isError ? (
        <ErrorBox error={list.error} onRetry={() => list.refetch()} />
      ) : list.isLoading ? (
        <SkeletonRows rows={4} />
      ) : !list.data?.data.length ? (
        <EmptyState>{t("bc.empty")}</EmptyState>
      ) : (
        <>
          <ul className="space-y-3 md:hidden" aria-label={t("bc.title")}>
            {list.data.data.map((b) => (
              <BroadcastCard key={b.id} b={b} />
            ))}
          </ul>
          <div className="hidden overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm md:block">
            <table className="w-full text-left text-sm" data-testid="broadcasts-table">
              <caption className="sr-only">{t("bc.title")}</caption>
              <thead className="bg-slate-50 text-xs uppercase text-slate-700">
                <tr>
                  {(["name", "number", "template", "status", "counts", "progress", "created"] as const).map((c) => (
                    <th key={c} scope="col" className="px-3 py-2 font-semibold">
                      {t(`bc.col.${c}`)}
                    </th>
                  ))}
                </tr>
              </thead>
              <tbody>
                {list.data.data.map((b) => (
                  <BroadcastRow key={b.id} b={b} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager page={page} pagination={pg} onPage={setPage} className="mt-4" />
        </>
      )}
    </>
  );
}

function useRowText(b: Broadcast) {
  const { t, locale } = useI18n();
  const p = progressOf(b.counts);
  return {
    counts: t("bc.countsSummary", {
      recipients: formatNumber(b.counts.recipients, locale),
      readed: formatNumber(b.counts.readed, locale),
      failed: formatNumber(b.counts.failed, locale),
    }),
    progress: p,
    progressText: t("bc.progressText", { done: formatNumber(p.done, locale), total: formatNumber(p.total, locale), percent: p.percent }),
    progressLabel: t("bc.progressLabel", { name: b.name }),
    created: formatDateTime(b.created_at, locale),
  };
}

function BroadcastRow({ b }: { b: Broadcast }) {
  const x = useRowText(b);
  return (
    <tr className="border-t border-slate-100 align-top" data-testid="broadcast-row" data-broadcast-id={b.id}>
      <td className="px-3 py-2 font-medium">
        <Link href={`/broadcasts/${b.id}`} className="text-wa-green-dark underline">
          {b.name}
        </Link>
      </td>
      <td className="px-3 py-2 tabular-nums">+{b.wa_number}</td>
      <td className="px-3 py-2">
        <TemplateName name={b.template.name} slug="below" />
      </td>
      <td className="px-3 py-2">
        <BroadcastStatusBadge status={b.status} />
      </td>
      <td className="px-3 py-2 text-xs">{x.counts}</td>
      <td className="min-w-40 px-3 py-2">
        <ProgressBar value={x.progress.done} max={x.progress.total} label={x.progressLabel} text={`${x.progress.percent} %`} />
      </td>
      <td className="px-3 py-2 text-xs whitespace-nowrap">
        <time dateTime={b.created_at}>{x.created}</time>
      </td>
    </tr>
  );
}

function BroadcastCard({ b }: { b: Broadcast }) {
  const x = useRowText(b);
  return (
    <li className="rounded-lg border border-slate-200 bg-white p-3 shadow-sm" data-testid="broadcast-card" data-broadcast-id={b.id}>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <Link href={`/broadcasts/${b.id}`} className="font-medium text-wa-green-dark underline">
          {b.name}
        </Link>
        <BroadcastStatusBadge status={b.status} />
      </div>
      <p className="mt-1 text-xs text-slate-700">
        +{b.wa_number} · <TemplateName name={b.template.name} /> · {x.created}
      </p>
      <p className="mt-1 text-xs text-slate-700">{x.counts}</p>
      <ProgressBar className="mt-2" value={x.progress.done} max={x.progress.total} label={x.progressLabel} text={x.progressText} />
    </li>
  );
}
