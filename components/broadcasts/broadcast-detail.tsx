"use client";
import { Fragment, useRef, useState } from "react";
import { providerErrorText } from "@/lib/i18n/provider-error";
import Link from "next/link";
import { useBroadcast, useBroadcastAction, useTimeline, type BroadcastAction, type Bucket } from "@/lib/api-client/broadcasts";
import type { Broadcast } from "@/lib/api-client/types";
import { useLiveEvents, type StreamState } from "@/lib/api-client/live-stream";
import { useI18n } from "@/lib/i18n";
import { Button, Card, cx, ErrorBox, inputClass, SkeletonRows } from "@/components/ui";
import { BroadcastStatusBadge } from "./status-badge";
import { MessagingLimitSummary } from "./messaging-limit";
import { ProgressBar } from "./progress-bar";
import { progressOf } from "@/lib/broadcasts/counts";
import { formatDateTime } from "@/lib/i18n/dates";
import { formatNumber } from "@/lib/i18n/numbers-format";
import { TemplateName } from "@/components/templates/template-name";
import { FunnelChart } from "./charts/funnel-chart";
import { TimelineChart } from "./charts/timeline-chart";
import { RecipientsTable } from "./recipients-table";

/**
 * One broadcast as it goes: live from the event stream (counts patched from `broadcast.updated`,
 * the rest refetched at most once a second), with its progress, funnel, sends over time,
 * failures by code, the lifecycle buttons and the recipients.
 */
export function BroadcastDetail({ id }: { id: number }) {
  const { t, locale } = useI18n();
  const broadcast = useBroadcast(id);
  const stream = useLiveEvents();
  const b = broadcast.data;

  if (broadcast.isError) return <ErrorBox error={broadcast.error} onRetry={() => broadcast.refetch()} />;
  if (!b) return <SkeletonRows rows={6} />;
  const p = progressOf(b.counts);

  return (
    <div className="space-y-6" data-testid="broadcast" data-status={b.status}>
      <div>
        <Link href="/broadcasts" className="text-sm text-wa-green-dark underline">
          ← {t("bc.back.list")}
        </Link>
        <div className="mt-2 flex flex-wrap items-center justify-between gap-3">
          <div className="flex min-w-0 flex-wrap items-center gap-3">
            <h1 className="text-xl font-semibold break-words text-slate-900">{b.name}</h1>
            <BroadcastStatusBadge status={b.status} />
            <LiveBadge state={stream} />
          </div>
          <Actions b={b} />
        </div>
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm text-slate-700" data-testid="broadcast-facts">
          <dt className="text-slate-600">{t("send.template")}</dt>
          <dd>
            <TemplateName name={b.template.name} language={b.template.language} slug="below" />
          </dd>
          <dt className="text-slate-600">{t("send.waNumber")}</dt>
          <dd className="tabular-nums">+{b.wa_number}</dd>
          <dt className="text-slate-600">{t("send.sentGroup")}</dt>
          <dd className="break-words">{b.sent_group}</dd>
        </dl>
        {b.status === "PAUSED" && b.paused_reason ? (
          <p
            className="mt-2 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900"
            role="status"
            data-testid="broadcast-paused-reason"
          >
            {t("bc.pausedByMeta")} {b.paused_reason}
          </p>
        ) : null}
        {b.created_by?.agent_name ? (
          <p className="mt-1 text-sm text-slate-700">{t("bc.createdBy", { name: b.created_by.agent_name })}</p>
        ) : null}
        <p className="text-xs text-slate-600">
          {(
            [
              ["scheduled", b.status === "SCHEDULED" ? b.scheduled_at : null, "bc.scheduledFor"],
              ["started", b.started_at, "bc.startedAt"],
              ["finished", b.finished_at, "bc.finishedAt"],
            ] as const
          )
            .filter(([, at]) => at)
            .map(([key, at, text], i) => (
              <Fragment key={key}>
                {i > 0 ? " · " : ""}
                <time dateTime={at!} data-testid={`broadcast-${key}`}>
                  {t(text, { date: formatDateTime(at, locale) })}
                </time>
              </Fragment>
            ))}
        </p>
      </div>

      <Card className="space-y-2">
        <ProgressBar
          value={p.done}
          max={p.total}
          label={t("bc.progressLabel", { name: b.name })}
          text={t("bc.progressText", { done: formatNumber(p.done, locale), total: formatNumber(p.total, locale), percent: p.percent })}
          testId="broadcast-progress"
        />
        {b.counts.rejected > 0 && <p className="text-xs text-amber-800">{t("bc.rejectedNote", { count: b.counts.rejected })}</p>}
      </Card>

      {b.messaging_limit && (
        <Card>
          <section aria-label={t("bc.limit.title")}>
            <MessagingLimitSummary plan={b.messaging_limit} />
          </section>
        </Card>
      )}

      <Card>
        <FunnelChart counts={b.counts} />
      </Card>

      <Card>
        <Timeline id={b.id} />
      </Card>

      {b.failures_by_code.length > 0 && (
        <Card>
          <table className="w-full text-left text-sm" data-testid="failures">
            <caption className="mb-2 text-left text-base font-semibold">{t("bc.failures")}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-xs text-slate-700">
                <th scope="col" className="py-1 pr-3">
                  {t("bc.failures.code")}
                </th>
                <th scope="col" className="py-1 pr-3">
                  {t("bc.failures.title")}
                </th>
                <th scope="col" className="py-1 text-right">
                  {t("bc.failures.count")}
                </th>
              </tr>
            </thead>
            <tbody>
              {b.failures_by_code.map((f, i) => (
                <tr key={`${f.code}-${i}`} className="border-b border-slate-100">
                  <td className="py-1 pr-3 tabular-nums">{f.code ?? "—"}</td>
                  <td className="py-1 pr-3 break-words">{providerErrorText(t, f.code, f.title)}</td>
                  <td className="py-1 text-right tabular-nums">{formatNumber(f.count, locale)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </Card>
      )}

      <Card>
        <RecipientsTable broadcastId={b.id} />
      </Card>
    </div>
  );
}

function LiveBadge({ state }: { state: StreamState }) {
  const { t } = useI18n();
  const text = { open: t("bc.live.open"), connecting: t("bc.live.connecting"), down: t("bc.live.down") }[state];
  return (
    <span
      className={cx(
        "inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs",
        state === "open" ? "bg-emerald-50 text-emerald-900" : "bg-slate-100 text-slate-700",
      )}
      data-testid="live-state"
      data-state={state}
    >
      <span aria-hidden="true" className={cx("h-2 w-2 rounded-full", state === "open" ? "bg-emerald-600" : "bg-slate-400")} />
      {text}
    </span>
  );
}

function Timeline({ id }: { id: number }) {
  const { t } = useI18n();
  const [bucket, setBucket] = useState<Bucket>("minute");
  const timeline = useTimeline(id, bucket);
  return (
    <section aria-labelledby="timeline-title" className="space-y-3" data-testid="timeline">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id="timeline-title" className="text-base font-semibold">
          {t("bc.timeline")}
        </h2>
        <div>
          <label htmlFor="timeline-bucket" className="block text-xs font-medium text-slate-700">
            {t("bc.timeline.bucket")}
          </label>
          <select id="timeline-bucket" className={inputClass} value={bucket} onChange={(e) => setBucket(e.target.value as Bucket)}>
            <option value="minute">{t("bc.timeline.minute")}</option>
            <option value="hour">{t("bc.timeline.hour")}</option>
          </select>
        </div>
      </div>
      {timeline.isError ? (
        <ErrorBox error={timeline.error} onRetry={() => timeline.refetch()} />
      ) : !timeline.data ? (
        <SkeletonRows rows={3} />
      ) : (
        <TimelineChart points={timeline.data} bucket={bucket} />
      )}
    </section>
  );
}

/** Pause, resume and cancel as the status allows; cancel asks first, in a modal dialog. */
function Actions({ b }: { b: Broadcast }) {
  const { t } = useI18n();
  const action = useBroadcastAction(b.id);
  const dialog = useRef<HTMLDialogElement>(null);
  const run = (a: BroadcastAction) => action.mutate(a);
  const canPause = b.status === "SENDING" || b.status === "SCHEDULED";
  const canResume = b.status === "PAUSED";
  const canCancel = b.status === "SENDING" || b.status === "SCHEDULED" || b.status === "PAUSED";
  if (!canPause && !canResume && !canCancel) return null;
  return (
    <div className="flex flex-wrap items-center gap-2">
      {canPause && (
        <Button variant="secondary" onClick={() => run("pause")} disabled={action.isPending} data-testid="broadcast-pause">
          {t("bc.pause")}
        </Button>
      )}
      {canResume && (
        <Button onClick={() => run("resume")} disabled={action.isPending} data-testid="broadcast-resume">
          {t("bc.resume")}
        </Button>
      )}
      {canCancel && (
        <Button variant="danger" onClick={() => dialog.current?.showModal()} disabled={action.isPending} data-testid="broadcast-cancel">
          {t("bc.cancel")}
        </Button>
      )}
      {action.isError && (
        <p role="alert" className="w-full text-sm text-red-700">
          {action.error.message}
        </p>
      )}
      <dialog
        ref={dialog}
        aria-labelledby="cancel-title"
        aria-describedby="cancel-text"
        className="m-auto max-w-md rounded-lg p-0 shadow-xl backdrop:bg-slate-900/40"
      >
        <form method="dialog" className="space-y-4 p-5">
          <h2 id="cancel-title" className="text-lg font-semibold">
            {t("bc.cancelTitle")}
          </h2>
          <p id="cancel-text" className="text-sm text-slate-700">
            {t("bc.cancelConfirm", { name: b.name })}
          </p>
          <div className="flex flex-wrap justify-end gap-2">
            <Button type="submit" variant="secondary" autoFocus>
              {t("bc.cancelKeep")}
            </Button>
            <Button
              type="button"
              variant="danger"
              onClick={() => {
                dialog.current?.close();
                run("cancel");
              }}
              data-testid="broadcast-cancel-confirm"
            >
              {t("bc.cancelYes")}
            </Button>
          </div>
        </form>
      </dialog>
    </div>
  );
}
