"use client";
import Link from "next/link";
import { useMemo, useState } from "react";
import { useMe } from "@/lib/api-client/auth";
import { useLiveEvents } from "@/lib/api-client/live-stream";
import { useWaNumbers } from "@/lib/api-client/numbers";
import { useSyncTemplates, useTemplateList, useTemplateSyncs, type TemplateFilters } from "@/lib/api-client/templates";
import type { Template } from "@/lib/api-client/types";
import { allows } from "@/lib/auth/permissions";
import { useI18n, type MessageKey } from "@/lib/i18n";
import { formatRecent } from "@/lib/i18n/dates";
import { templateLanguageName } from "@/lib/templates/display-name";
import { Button, Card, cx, EmptyState, ErrorBox, inputClass, PageTitle, SkeletonRows } from "@/components/ui";
import { Pager } from "@/components/ui/pager";
import { AccountHeader } from "./account-header";
import { SyncResults } from "./sync-results";
import { TEMPLATE_STATUSES, QualityChip, TemplateStatusChip } from "./template-chips";
import { TemplateDetail } from "./template-detail";
import { groupTemplates, type TemplateGroup } from "./template-groups";
import { TemplateName } from "./template-name";

const NO_FILTERS: TemplateFilters = { status: "", search: "", page: 1 };

/**
 * The team's templates as Meta has them (docs/features/templates-and-number-health.md): by
 * business account, each with its numbers' health; every status, filtered by status and name; a
 * row opens the template (its preview and history). Owners and admins sync with Meta from here.
 * Meta's changes arrive live (template.updated, number.health: lib/api-client/templates-live.ts).
 */
export function TemplatesPage() {
  const { t } = useI18n();
  useLiveEvents();
  const me = useMe();
  const [filters, setFilters] = useState<TemplateFilters>(NO_FILTERS);
  const [openId, setOpenId] = useState<string | null>(null);
  const [opened, setOpened] = useState<Template | null>(null);
  const list = useTemplateList(filters);
  const numbers = useWaNumbers();
  const syncs = useTemplateSyncs();
  const sync = useSyncTemplates();
  const canSync = !!me.data?.role && allows({ role: me.data.role }, "templates:write");
  const set = (patch: Partial<TemplateFilters>) => setFilters((f) => ({ ...f, page: 1, ...patch }));

  const groups = useMemo(() => groupTemplates(numbers.data ?? [], list.data?.data ?? []), [numbers.data, list.data]);
  // The open template as the list now has it (a live change shows at once), else as it was opened.
  const current = (openId && list.data?.data.find((x) => x.id === openId)) || opened;
  const open = (tpl: Template) => {
    setOpenId(tpl.id);
    setOpened(tpl);
  };
  const close = () => {
    const name = current?.name;
    setOpenId(null);
    setOpened(null);
    // Back on the row it was opened from (on a phone the list comes back in its place).
    requestAnimationFrame(() => {
      const buttons = document.querySelectorAll<HTMLElement>(`[data-template-open="${CSS.escape(name ?? "")}"]`);
      [...buttons].find((b) => b.offsetParent !== null)?.focus();
    });
  };
  const filtered = filters.status !== "" || filters.search.trim() !== "";

  return (
    <>
      <PageTitle
        actions={
          canSync ? (
            <div className="flex flex-wrap items-center gap-2">
              <Link
                href="/templates/new"
                className="rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-900 hover:bg-slate-50"
                data-testid="new-template"
              >
                {t("te.new")}
              </Link>
              <Button onClick={() => sync.mutate()} disabled={sync.isPending} aria-busy={sync.isPending} data-testid="sync-templates">
                {sync.isPending && (
                  <span aria-hidden="true" className="h-3.5 w-3.5 animate-spin rounded-full border-2 border-white/40 border-t-white" />
                )}
                {sync.isPending ? t("tp.syncing") : t("tp.sync")}
              </Button>
            </div>
          ) : null
        }
      >
        {t("tp.title")}
      </PageTitle>
      <p className="mb-4 max-w-3xl text-sm text-slate-700">{t("tp.intro")}</p>
      {(sync.isPending || sync.data || sync.isError) && (
        <Card className="mb-4">
          <div role="status" aria-live="polite">
            {sync.isPending ? (
              <p className="text-sm text-slate-700">{t("tp.syncing")}</p>
            ) : sync.isError ? (
              <ErrorBox error={sync.error} />
            ) : sync.data ? (
              <>
                <p className="mb-1 text-sm font-semibold">{t("tp.syncDone")}</p>
                <SyncResults accounts={sync.data} />
              </>
            ) : null}
          </div>
        </Card>
      )}
      <Card className="mb-4">
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
          <label className="text-sm">
            <span className="mb-1 block font-medium">{t("tp.filterStatus")}</span>
            <select
              className={inputClass}
              value={filters.status}
              onChange={(e) => set({ status: e.target.value })}
              data-testid="status-filter"
            >
              <option value="">{t("tp.anyStatus")}</option>
              {TEMPLATE_STATUSES.map((s) => (
                <option key={s} value={s}>
                  {t(`tp.status.${s}` as MessageKey)}
                </option>
              ))}
            </select>
          </label>
          <label className="text-sm">
            <span className="mb-1 block font-medium">{t("tp.search")}</span>
            <input
              className={inputClass}
              type="search"
              placeholder={t("tp.searchPlaceholder")}
              value={filters.search}
              onChange={(e) => set({ search: e.target.value })}
              data-testid="template-search"
            />
          </label>
        </div>
      </Card>
      <div className={cx("grid gap-4", current && "lg:grid-cols-[minmax(0,1fr)_26rem]")}>
        <div className={cx(current && "hidden lg:block")}>
          {list.isError || numbers.isError ? (
            <ErrorBox error={list.error ?? numbers.error} onRetry={() => (list.refetch(), numbers.refetch())} />
          ) : list.isLoading || numbers.isLoading ? (
            <SkeletonRows rows={6} />
          ) : filtered && !list.data?.data.length ? (
            <EmptyState>{t("tp.empty")}</EmptyState>
          ) : (
            <div className="space-y-4">
              {groups.map((g) => (
                <GroupSection key={g.key} group={g} syncs={syncs.data} openId={current?.id ?? null} onOpen={open} />
              ))}
              <Pager page={filters.page} pagination={list.data?.pagination} onPage={(page) => setFilters((f) => ({ ...f, page }))} />
            </div>
          )}
        </div>
        {current && (
          <div className="lg:sticky lg:top-4 lg:self-start">
            <TemplateDetail key={current.id} template={current} onClose={close} />
          </div>
        )}
      </div>
    </>
  );
}

function GroupSection({
  group,
  syncs,
  openId,
  onOpen,
}: {
  group: TemplateGroup;
  syncs: Parameters<typeof AccountHeader>[0]["syncs"];
  openId: string | null;
  onOpen: (t: Template) => void;
}) {
  const { t } = useI18n();
  return (
    <section
      className="overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
      data-testid="template-group"
      data-kind={group.kind}
    >
      <AccountHeader group={group} syncs={syncs} />
      {!group.templates.length ? (
        <p className="p-4 text-sm text-slate-600">{t("tp.emptyGroup")}</p>
      ) : (
        <>
          <ul className="divide-y divide-slate-100 md:hidden">
            {group.templates.map((tpl) => (
              <TemplateCard key={tpl.id} tpl={tpl} open={tpl.id === openId} onOpen={onOpen} />
            ))}
          </ul>
          <table className="hidden w-full text-left text-sm md:table">
            <thead className="bg-white text-xs uppercase text-slate-600">
              <tr>
                {(["name", "language", "category", "status", "quality", "changed"] as const).map((c) => (
                  <th key={c} scope="col" className="px-3 py-2 font-semibold">
                    {t(`tp.col.${c}`)}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {group.templates.map((tpl) => (
                <TemplateRow key={tpl.id} tpl={tpl} open={tpl.id === openId} onOpen={onOpen} />
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}

function useRowText(tpl: Template) {
  const { t, locale } = useI18n();
  const key = `tpl.category.${tpl.category.toUpperCase()}` as MessageKey;
  const category = t(key) === key ? tpl.category : t(key);
  return {
    language: templateLanguageName(tpl.language, locale),
    category,
    changed: formatRecent(tpl.updated_at, locale),
    reason: tpl.rejected_reason && tpl.rejected_reason.toUpperCase() !== "NONE" ? t("tp.reason", { reason: tpl.rejected_reason }) : null,
    openLabel: t("tp.open", { name: tpl.name }),
  };
}

function TemplateRow({ tpl, open, onOpen }: { tpl: Template; open: boolean; onOpen: (t: Template) => void }) {
  const x = useRowText(tpl);
  return (
    <tr
      className={cx("cursor-pointer border-t border-slate-100 align-top hover:bg-slate-50", open && "bg-emerald-50")}
      onClick={() => onOpen(tpl)}
      data-testid="template-row"
      data-template={tpl.name}
    >
      <td className="px-3 py-2">
        <button
          type="button"
          className="text-left text-wa-green-dark hover:underline focus-visible:outline-2"
          aria-label={x.openLabel}
          aria-pressed={open}
          data-template-open={tpl.name}
          onClick={(e) => {
            e.stopPropagation();
            onOpen(tpl);
          }}
        >
          <TemplateName name={tpl.name} slug="below" />
        </button>
      </td>
      <td className="px-3 py-2">{x.language}</td>
      <td className="px-3 py-2">{x.category}</td>
      <td className="px-3 py-2">
        <TemplateStatusChip status={tpl.status} />
        {x.reason && <p className="mt-1 max-w-56 text-xs text-red-800">{x.reason}</p>}
      </td>
      <td className="px-3 py-2">
        <QualityChip quality={tpl.quality_score} />
      </td>
      <td className="whitespace-nowrap px-3 py-2 text-xs">
        <time dateTime={tpl.updated_at}>{x.changed}</time>
      </td>
    </tr>
  );
}

function TemplateCard({ tpl, open, onOpen }: { tpl: Template; open: boolean; onOpen: (t: Template) => void }) {
  const x = useRowText(tpl);
  return (
    <li data-testid="template-card" data-template={tpl.name}>
      <button
        type="button"
        className={cx("block w-full px-4 py-3 text-left hover:bg-slate-50 focus-visible:outline-2", open && "bg-emerald-50")}
        aria-label={x.openLabel}
        aria-pressed={open}
        data-template-open={tpl.name}
        onClick={() => onOpen(tpl)}
      >
        <span className="flex flex-wrap items-start justify-between gap-2">
          <TemplateName name={tpl.name} slug="below" className="text-wa-green-dark" />
          <TemplateStatusChip status={tpl.status} />
        </span>
        {x.reason && <span className="mt-1 block text-xs text-red-800">{x.reason}</span>}
        <span className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-700">
          <span>{x.language}</span>
          <span>{x.category}</span>
          <QualityChip quality={tpl.quality_score} />
          <time dateTime={tpl.updated_at}>{x.changed}</time>
        </span>
      </button>
    </li>
  );
}
