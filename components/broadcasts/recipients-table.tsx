"use client";
import { useId, useState } from "react";
import { providerErrorText } from "@/lib/i18n/provider-error";
import type { Translate } from "@/lib/i18n";
import { recipientsCsvUrl, useRecipients } from "@/lib/api-client/broadcasts";
import type { RecipientStatus } from "@/lib/api-client/types";
import { RECIPIENT_STATUSES } from "@/lib/broadcasts/schemas";
import { useI18n } from "@/lib/i18n";
import { EmptyState, ErrorBox, inputClass, SkeletonRows } from "@/components/ui";
import { Pager } from "@/components/ui/pager";
import { formatDateTime } from "@/lib/i18n/dates";

/** A broadcast's recipients, one page at a time, filtered by status, and the whole list as CSV. */
export function RecipientsTable({ broadcastId }: { broadcastId: number }) {
  const { t, locale } = useI18n();
  const id = useId();
  const [status, setStatus] = useState<RecipientStatus | "">("");
  const [page, setPage] = useState(1);
  const list = useRecipients(broadcastId, status, page);
  const pg = list.data?.pagination;
  return (
    <section aria-labelledby={`${id}-title`} className="space-y-3" data-testid="recipients">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h2 id={`${id}-title`} className="text-base font-semibold">
          {t("bc.recipients")}
          {pg && <span className="ml-2 text-sm font-normal text-slate-600">{t("bc.recipients.count", { count: pg.total_items })}</span>}
        </h2>
        <div className="flex flex-wrap items-end gap-3">
          <div>
            <label htmlFor={`${id}-status`} className="block text-xs font-medium text-slate-700">
              {t("bc.recipients.filter")}
            </label>
            <select
              id={`${id}-status`}
              className={inputClass}
              value={status}
              onChange={(e) => {
                setStatus(e.target.value as RecipientStatus | "");
                setPage(1);
              }}
              data-testid="recipients-status"
            >
              <option value="">{t("bc.recipients.all")}</option>
              {RECIPIENT_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`status.${s}`)}
                </option>
              ))}
            </select>
          </div>
          <a
            href={recipientsCsvUrl(broadcastId, status, locale)}
            download
            className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium hover:bg-slate-100"
            data-testid="recipients-export"
          >
            {t("bc.recipients.export")}
          </a>
        </div>
      </div>
      {list.isError ? (
        <ErrorBox error={list.error} onRetry={() => list.refetch()} />
      ) : list.isLoading ? (
        <SkeletonRows rows={4} />
      ) : !list.data?.data.length ? (
        <EmptyState>{t("bc.recipients.empty")}</EmptyState>
      ) : (
        // At phone width the table scrolls sideways inside its box: a focusable region, so the
        // keyboard can scroll it too (axe scrollable-region-focusable).
        <div
          className="overflow-x-auto rounded-lg border border-slate-200 bg-white focus-visible:outline-2 focus-visible:outline-wa-green-dark"
          role="region"
          aria-labelledby={`${id}-title`}
          tabIndex={0}
        >
          <table className="w-full text-left text-sm" aria-busy={list.isFetching} data-testid="recipients-table">
            <caption className="sr-only">{t("bc.recipients")}</caption>
            <thead className="bg-slate-50 text-xs text-slate-700">
              <tr>
                {(["contact", "status", "error", "replied", "updated"] as const).map((c) => (
                  <th key={c} scope="col" className="px-3 py-2 font-semibold">
                    {t(`bc.recipients.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {list.data.data.map((r, i) => (
                <tr
                  key={`${r.contact.id}-${r.update_id ?? i}`}
                  className="border-t border-slate-100 align-top"
                  data-testid="recipient-row"
                  data-status={r.status}
                >
                  <td className="px-3 py-2">
                    <span className="block font-medium">{r.contact.name || "—"}</span>
                    <span className="block text-xs text-slate-600 tabular-nums">
                      {r.contact.customer_number ? `+${r.contact.customer_number}` : "—"}
                    </span>
                  </td>
                  <td className="px-3 py-2 whitespace-nowrap">{t(`status.${r.status}`)}</td>
                  <td className="px-3 py-2 text-xs break-words">{r.error ? recipientError(t, r.error) : ""}</td>
                  <td className="px-3 py-2">{r.replied ? t("bc.yes") : t("bc.no")}</td>
                  <td className="px-3 py-2 text-xs whitespace-nowrap">
                    <time dateTime={r.updated_at}>{formatDateTime(r.updated_at, locale)}</time>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager page={page} pagination={pg} onPage={setPage} label={t("bc.recipients")} />
    </section>
  );
}

/** A rejection's own reason (no code), or the provider's error in the UI's language (an unknown code: "131999 Meta's title"). */
function recipientError(t: Translate, e: { code: number | null; title: string }): string {
  if (e.code === null) return e.title;
  const text = providerErrorText(t, e.code, e.title);
  return text === e.title ? `${e.code} ${e.title}` : text;
}
