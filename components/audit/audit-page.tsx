"use client";
import { useState } from "react";
import { auditSearch, useAudit, type AuditEvent, type AuditFilters } from "@/lib/api-client/audit";
import { AUDIT_ACTIONS } from "@/lib/audit/actions";
import { useI18n, type MessageKey } from "@/lib/i18n";
import { formatDateTime } from "@/lib/i18n/dates";
import { Card, EmptyState, ErrorBox, inputClass, PageTitle, SkeletonRows } from "@/components/ui";
import { Pager } from "@/components/ui/pager";
import { DateField } from "@/components/ui/date-field";

const NO_FILTERS: AuditFilters = { action: "", actor: "", from: "", to: "", page: 1 };

/** The team's audit trail: filters (action, who, days), the rows newest first, and the CSV of what is filtered. */
export function AuditPage() {
  const { t } = useI18n();
  const [filters, setFilters] = useState<AuditFilters>(NO_FILTERS);
  const audit = useAudit(filters);
  // Any filter change starts again at the first page.
  const set = (patch: Partial<AuditFilters>) => setFilters((f) => ({ ...f, page: 1, ...patch }));
  const { page: _page, ...csvFilters } = filters;
  return (
    <>
      <PageTitle
        actions={
          <a
            className="text-sm font-medium text-wa-green underline"
            href={`/api/v1/audit?${auditSearch({ ...csvFilters, format: "csv" })}`}
          >
            {t("audit.export")}
          </a>
        }
      >
        {t("audit.title")}
      </PageTitle>
      <p className="mb-4 max-w-3xl text-sm text-slate-700">{t("audit.intro")}</p>
      <Card className="mb-4">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
          <label className="text-sm">
            <span className="mb-1 block font-medium">{t("audit.action")}</span>
            <select className={inputClass} value={filters.action} onChange={(e) => set({ action: e.target.value })}>
              <option value="">{t("audit.anyAction")}</option>
              {AUDIT_ACTIONS.map((a) => (
                <option key={a} value={a}>
                  {t(`audit.a.${a}` as MessageKey)}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            <span className="mb-1 block font-medium">{t("audit.actor")}</span>
            <input
              className={inputClass}
              type="search"
              placeholder={t("audit.actorPlaceholder")}
              value={filters.actor}
              onChange={(e) => set({ actor: e.target.value })}
            />
          </label>
          <label className="text-sm">
            <span className="mb-1 block font-medium">{t("audit.from")}</span>
            <DateField id="audit-from" value={filters.from} onChange={(from) => set({ from })} />
          </label>
          <label className="text-sm">
            <span className="mb-1 block font-medium">{t("audit.to")}</span>
            <DateField id="audit-to" value={filters.to} onChange={(to) => set({ to })} />
          </label>
        </div>
      </Card>
      {audit.isError ? (
        <ErrorBox error={audit.error} onRetry={() => audit.refetch()} />
      ) : audit.isLoading ? (
        <SkeletonRows rows={6} />
      ) : !audit.data?.data.length ? (
        <EmptyState>{t("audit.empty")}</EmptyState>
      ) : (
        <>
          <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
            <table className="w-full text-left text-sm">
              <thead className="bg-slate-50 text-xs uppercase text-slate-600">
                <tr>
                  <th className="px-3 py-2">{t("audit.when")}</th>
                  <th className="px-3 py-2">{t("audit.actor")}</th>
                  <th className="px-3 py-2">{t("audit.action")}</th>
                  <th className="px-3 py-2">{t("audit.target")}</th>
                  <th className="px-3 py-2">{t("audit.changes")}</th>
                  <th className="px-3 py-2">{t("audit.ip")}</th>
                </tr>
              </thead>
              <tbody>
                {audit.data.data.map((e) => (
                  <AuditRow key={e.id} event={e} />
                ))}
              </tbody>
            </table>
          </div>
          <Pager
            className="mt-4"
            page={filters.page}
            pagination={audit.data.pagination}
            onPage={(page) => setFilters((f) => ({ ...f, page }))}
          />
        </>
      )}
    </>
  );
}

function AuditRow({ event }: { event: AuditEvent }) {
  const { t, locale } = useI18n();
  return (
    <tr className="border-t border-slate-100 align-top" data-testid="audit-row">
      <td className="whitespace-nowrap px-3 py-2">{formatDateTime(event.at, locale)}</td>
      <td className="px-3 py-2">
        <span className="font-medium">{event.actor.name}</span>{" "}
        <span className="text-xs text-slate-500">{t(`audit.kind.${event.actor.kind}` as MessageKey)}</span>
      </td>
      <td className="px-3 py-2">{t(`audit.a.${event.action}` as MessageKey)}</td>
      <td className="px-3 py-2">{event.target?.name ?? event.target?.id ?? "—"}</td>
      <td className="px-3 py-2">
        {event.changes ? (
          <ul className="space-y-0.5">
            {Object.entries(event.changes).map(([field, change]) => (
              <li key={field}>
                <span className="font-mono text-xs">{field}</span>:{" "}
                {"changed" in change ? (
                  <em>{t("audit.secretChanged")}</em>
                ) : (
                  <>
                    <span className="text-slate-500 line-through">{show(change.before)}</span> → <span>{show(change.after)}</span>
                  </>
                )}
              </li>
            ))}
          </ul>
        ) : (
          "—"
        )}
      </td>
      <td className="whitespace-nowrap px-3 py-2 font-mono text-xs">{event.ip ?? "—"}</td>
    </tr>
  );
}

/** A field's value as text (a long one shortened: the CSV has it whole). */
function show(value: unknown): string {
  if (value === null || value === undefined) return "∅";
  const s = typeof value === "string" ? value : JSON.stringify(value);
  return s.length > 80 ? `${s.slice(0, 79)}…` : s;
}
