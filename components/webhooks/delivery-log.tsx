"use client";
import { useState } from "react";
import {
  useEndpointDeliveries,
  useEndpointMutations,
  type WebhookDelivery,
  type WebhookEndpoint,
} from "@/lib/api-client/webhook-endpoints";
import { useI18n, type MessageKey } from "@/lib/i18n";
import { formatDateTime } from "@/lib/i18n/dates";
import { Button, cx, EmptyState, ErrorBox, inputClass, SkeletonRows } from "@/components/ui";
import { Pager } from "@/components/ui/pager";

const STATUS_STYLE: Record<WebhookDelivery["status"], string> = {
  pending: "bg-amber-100 text-amber-900",
  delivered: "bg-emerald-100 text-emerald-900",
  failed: "bg-red-100 text-red-800",
};

/** The local time of a `datetime-local` input, 24 hours ago: where "resend failed since" starts. */
function dayAgoLocal(): string {
  const d = new Date(Date.now() - 86_400_000 - new Date().getTimezoneOffset() * 60_000);
  return d.toISOString().slice(0, 16);
}

/** One endpoint's deliveries, newest first: status, attempts, next retry, last answer and its time, the body; resend one or every failed one since a time. */
export function DeliveryLog({ endpoint, canWrite }: { endpoint: WebhookEndpoint; canWrite: boolean }) {
  const { t, locale } = useI18n();
  const [page, setPage] = useState(1);
  const [since, setSince] = useState(dayAgoLocal);
  const log = useEndpointDeliveries(endpoint.id, page);
  const { resend, resendFailed } = useEndpointMutations();
  const error = resend.error ?? resendFailed.error;
  return (
    <section className="mt-3 border-t border-slate-100 pt-3" aria-label={t("webhooks.deliveries")} data-testid="delivery-log">
      {canWrite && (
        <form
          className="mb-3 flex flex-wrap items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            resendFailed.mutate({ id: endpoint.id, since: new Date(since).toISOString() });
          }}
        >
          <label className="text-sm">
            <span className="mb-1 block font-medium">{t("webhooks.resendFailedSince")}</span>
            <input type="datetime-local" className={inputClass} value={since} required onChange={(e) => setSince(e.target.value)} />
          </label>
          <Button type="submit" variant="secondary" disabled={resendFailed.isPending || !endpoint.enabled}>
            {t("webhooks.resendFailed")}
          </Button>
          {resendFailed.data && (
            <p role="status" className="text-sm text-slate-700">
              {t("webhooks.resentCount", { count: resendFailed.data.data.resent })}
            </p>
          )}
        </form>
      )}
      {error && (
        <p role="alert" className="mb-2 text-sm text-red-700">
          {error.message}
        </p>
      )}
      {log.isError ? (
        <ErrorBox error={log.error} onRetry={() => log.refetch()} />
      ) : log.isLoading ? (
        <SkeletonRows rows={2} />
      ) : !log.data?.data.length ? (
        <EmptyState>{t("webhooks.noDeliveries")}</EmptyState>
      ) : (
        <>
          <ul className="space-y-2">
            {log.data.data.map((d) => (
              <li key={d.id} className="rounded-md border border-slate-200 p-2 text-xs" data-testid="delivery-row" data-delivery-id={d.id}>
                <div className="flex flex-wrap items-center gap-x-4 gap-y-1">
                  <span className={cx("rounded-full px-2 py-0.5 font-medium", STATUS_STYLE[d.status])} data-testid="delivery-status">
                    {t(`webhooks.status.${d.status}` as MessageKey)}
                  </span>
                  <span className="font-mono font-semibold">{d.event}</span>
                  <span>
                    {t("webhooks.created")}: {formatDateTime(d.created_at, locale)}
                  </span>
                  <span>
                    {t("webhooks.attempts")}: {d.attempts}
                  </span>
                  {d.status === "pending" && (
                    <span>
                      {t("webhooks.nextRetry")}: {formatDateTime(d.next_attempt_at, locale)}
                    </span>
                  )}
                  <span>
                    {t("webhooks.response")}: {d.last_status_code ?? d.last_error ?? t("webhooks.noResponse")}
                    {d.last_duration_ms !== null && ` · ${d.last_duration_ms} ms`}
                    {d.last_attempt_at && ` · ${formatDateTime(d.last_attempt_at, locale)}`}
                  </span>
                  {canWrite && (
                    <Button
                      variant="secondary"
                      className="ml-auto"
                      disabled={resend.isPending || !endpoint.enabled}
                      onClick={() => resend.mutate(d.id)}
                    >
                      {t("webhooks.resend")}
                    </Button>
                  )}
                </div>
                <details className="mt-1">
                  <summary className="cursor-pointer text-slate-600">{t("webhooks.payload")}</summary>
                  <pre className="mt-1 max-h-64 overflow-auto rounded bg-slate-50 p-2 font-mono text-[11px] text-slate-800">
                    {JSON.stringify(d.payload, null, 2)}
                  </pre>
                </details>
              </li>
            ))}
          </ul>
          <Pager pagination={log.data.pagination} page={page} onPage={setPage} />
        </>
      )}
    </section>
  );
}
