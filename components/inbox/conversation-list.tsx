"use client";
import { useEffect, useState } from "react";
import type { Conversation, Label, WaNumber } from "@/lib/api-client/types";
import { fitsFilters, useConversations, type ConversationFilters } from "@/lib/api-client/inbox";
import { useI18n, type MessageKey } from "@/lib/i18n";
import { formatRecent } from "@/lib/i18n/dates";
import { contactDisplayName } from "@/lib/contacts/display-name";
import { LabelChip } from "@/components/labels/label-chip";
import { cx, ErrorBox, inputClass, SkeletonRows } from "@/components/ui";
import { NumberOptions } from "@/components/numbers/number-options";
import { previewText } from "./preview-text";
import { WaitingClock } from "./clocks";
import { useTeamSettings } from "@/lib/api-client/team-settings";
import { DEFAULT_WAITING_ALERT_MINUTES } from "@/lib/teams/settings-schemas";

export type Tab = "me" | "none" | "all";

const ICON_PATHS: Record<string, string> = {
  image: "M2 3h12v10H2z M4 11l3-4 2 3 1.5-2L13 11z M5 6.5a1 1 0 1 0 0-.01",
  video: "M1.5 4h9v8h-9z M11 7l3.5-2v6L11 9z",
  audio: "M6 2h4v7H6z M4 7.5a4 4 0 0 0 8 0 M8 11.5V14",
  document: "M3.5 1.5h6l3 3v10h-9z M9.5 1.5v3h3 M5.5 8h5 M5.5 10.5h5",
  location: "M8 14.5s-4.5-4.5-4.5-8a4.5 4.5 0 0 1 9 0c0 3.5-4.5 8-4.5 8z M8 5a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3",
  contacts: "M8 2a3 3 0 1 0 0 6 3 3 0 0 0 0-6z M2.5 14.5a5.5 5.5 0 0 1 11 0",
  template: "M2.5 2.5h11v11h-11z M5 5.5h6 M5 8h6 M5 10.5h4",
  interactive: "M2 3h12v4H2z M2 9h12v4H2z",
};
const ICON_OF: Record<string, string> = {
  image: "image",
  sticker: "image",
  video: "video",
  audio: "audio",
  voice: "audio",
  document: "document",
  location: "location",
  contacts: "contacts",
  template: "template",
  quick_reply: "interactive",
  list: "interactive",
  interactive: "interactive",
  button: "interactive",
  list_reply: "interactive",
  button_reply: "interactive",
};

function TypeIcon({ type }: { type: string }) {
  const d = ICON_PATHS[ICON_OF[type] ?? ""];
  if (!d) return null;
  return (
    <svg
      viewBox="0 0 16 16"
      className="mr-1 inline h-3.5 w-3.5 shrink-0 align-[-2px] text-slate-600"
      aria-hidden="true"
      data-icon={ICON_OF[type]}
    >
      <path d={d} fill="none" stroke="currentColor" strokeWidth="1.3" strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}

/** `outbound`: open conversations the customer never wrote in (a broadcast opened them), apart from "Abiertas". */
export type ListStatus = "open" | "outbound" | "resolved";
export type ListOrder = "newest" | "waiting";
export type ListFilters = {
  tab: Tab;
  status: ListStatus;
  order: ListOrder;
  needsReply: boolean;
  labelId: number | null;
  search: string;
};

/** The filters as the URL keeps them (`?tab=me&status=outbound&order=waiting&label=3&q=ana&needs_reply=1`): a reload keeps them. */
export function filtersFromUrl(sp: URLSearchParams): ListFilters {
  const tab = sp.get("tab");
  const status = sp.get("status");
  const label = Number(sp.get("label"));
  return {
    tab: tab === "me" || tab === "none" ? tab : "all",
    status: status === "outbound" || status === "resolved" ? status : "open",
    order: sp.get("order") === "waiting" ? "waiting" : "newest",
    needsReply: sp.get("needs_reply") === "1",
    labelId: Number.isInteger(label) && label > 0 ? label : null,
    search: (sp.get("q") ?? "").slice(0, 100),
  };
}

/** URL parameters of the filters; defaults are left out so a plain /inbox stays plain. */
export function filtersToUrl(f: ListFilters): Record<string, string | null> {
  return {
    tab: f.tab === "all" ? null : f.tab,
    status: f.status === "open" ? null : f.status,
    order: f.order === "newest" ? null : f.order,
    needs_reply: f.needsReply ? "1" : null,
    label: f.labelId ? String(f.labelId) : null,
    q: f.search || null,
  };
}

/** The conversation list: number switcher, assignment tabs, filters, search and the rows. */
export function ConversationList({
  numbers,
  waNumber,
  onNumber,
  labels,
  filters,
  onFilters,
  selectedId,
  onSelect,
  onConversations,
}: {
  numbers: WaNumber[];
  waNumber: string;
  onNumber: (n: string) => void;
  labels: Label[];
  filters: ListFilters;
  onFilters: (f: ListFilters) => void;
  selectedId: number | null;
  onSelect: (c: Conversation) => void;
  onConversations: (list: Conversation[]) => void;
}) {
  const { t, locale } = useI18n();
  const [search, setSearch] = useState(filters.search);
  // The search is sent once typing pauses.
  useEffect(() => {
    const h = setTimeout(() => {
      if (search !== filters.search) onFilters({ ...filters, search });
    }, 300);
    return () => clearTimeout(h);
  }, [search, filters, onFilters]);

  const query: ConversationFilters = {
    wa_number: waNumber,
    status: filters.status === "resolved" ? "resolved" : "open",
    // "Abiertas" waits for the customer's first word; until then the conversation is under "outbound".
    ...(filters.status !== "resolved" ? { outbound_only: filters.status === "outbound" } : {}),
    ...(filters.order === "waiting" ? { order: "waiting" as const } : {}),
    ...(filters.tab !== "all" ? { assignee: filters.tab } : {}),
    ...(filters.needsReply ? { needs_reply: true } : {}),
    ...(filters.labelId ? { label_id: [filters.labelId] } : {}),
    ...(filters.search ? { search: filters.search } : {}),
  };
  const list = useConversations(query);
  // The team's threshold for the rows' waiting clocks; its default until the settings are read.
  const alertMinutes = useTeamSettings().data?.waiting_alert_minutes ?? DEFAULT_WAITING_ALERT_MINUTES;
  const rows = list.data?.pages.flatMap((p) => p.data) ?? [];
  // Live patches may leave a conversation that no longer fits the tab (assigned or resolved meanwhile).
  const visible = rows.filter(
    (c) =>
      fitsFilters(c, query) !== false &&
      (filters.tab === "all" || (filters.tab === "none" ? c.assignee_agent_id === null : c.assignee_agent_id !== null)),
  );

  useEffect(() => {
    onConversations(visible);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the list's data identity is what changes
  }, [list.data, onConversations]);

  const tabs: { id: Tab; key: MessageKey }[] = [
    { id: "me", key: "inbox.tabMine" },
    { id: "none", key: "inbox.tabUnassigned" },
    { id: "all", key: "inbox.tabAll" },
  ];

  return (
    <section aria-label={t("inbox.list")} className="flex min-h-0 flex-1 flex-col bg-white">
      <div className="space-y-2 border-b border-slate-200 p-2">
        <label htmlFor="inbox-number" className="sr-only">
          {t("conv.waNumber")}
        </label>
        <select id="inbox-number" className={inputClass} value={waNumber} onChange={(e) => onNumber(e.target.value)}>
          <NumberOptions numbers={numbers} />
        </select>
        <div role="tablist" aria-label={t("inbox.assignment")} className="flex rounded-md bg-slate-100 p-0.5 text-sm">
          {tabs.map((tab) => (
            <button
              key={tab.id}
              role="tab"
              type="button"
              aria-selected={filters.tab === tab.id}
              className={cx(
                "flex-1 whitespace-nowrap rounded px-1 py-1",
                filters.tab === tab.id ? "bg-white font-semibold shadow-sm" : "text-slate-700",
              )}
              onClick={() => onFilters({ ...filters, tab: tab.id })}
            >
              {t(tab.key)}
            </button>
          ))}
        </div>
        <label htmlFor="inbox-search" className="sr-only">
          {t("inbox.search")}
        </label>
        <input
          id="inbox-search"
          type="search"
          className={inputClass}
          placeholder={t("inbox.search")}
          value={search}
          onChange={(e) => setSearch(e.target.value)}
        />
        {/* One select per row: none of their options is ever cut (the list column is 20rem). */}
        <div className="grid grid-cols-1 gap-2 text-sm">
          <label htmlFor="inbox-status" className="sr-only">
            {t("inbox.status")}
          </label>
          <select
            id="inbox-status"
            className={cx(inputClass, "min-w-0 py-1")}
            value={filters.status}
            onChange={(e) => onFilters({ ...filters, status: e.target.value as ListStatus })}
            title={filters.status === "outbound" ? t("inbox.outboundOnlyHint") : undefined}
          >
            <option value="open">{t("inbox.open")}</option>
            <option value="outbound">{t("inbox.outboundOnly")}</option>
            <option value="resolved">{t("inbox.resolved")}</option>
          </select>
          <label htmlFor="inbox-order" className="sr-only">
            {t("inbox.order")}
          </label>
          <select
            id="inbox-order"
            className={cx(inputClass, "min-w-0 py-1")}
            value={filters.order}
            onChange={(e) => onFilters({ ...filters, order: e.target.value as ListOrder })}
          >
            <option value="newest">{t("inbox.orderNewest")}</option>
            <option value="waiting">{t("inbox.orderWaiting")}</option>
          </select>
          <label htmlFor="inbox-label" className="sr-only">
            {t("inbox.labelFilter")}
          </label>
          {/* The whole row: a long label title is never cut. */}
          <select
            id="inbox-label"
            className={cx(inputClass, "min-w-0 py-1")}
            value={filters.labelId ?? ""}
            onChange={(e) => onFilters({ ...filters, labelId: e.target.value ? Number(e.target.value) : null })}
          >
            <option value="">{t("inbox.anyLabel")}</option>
            {labels.map((l) => (
              <option key={l.id} value={l.id}>
                {l.title}
              </option>
            ))}
          </select>
          <label className="flex items-center gap-1.5">
            <input type="checkbox" checked={filters.needsReply} onChange={(e) => onFilters({ ...filters, needsReply: e.target.checked })} />
            {t("inbox.needsReply")}
          </label>
        </div>
      </div>
      {/* relative: the rows' visually hidden texts are positioned inside this scroller, never beyond it. */}
      <div className="relative min-h-0 flex-1 overflow-y-auto" data-testid="conversation-list">
        {list.isError ? (
          <ErrorBox error={list.error} onRetry={() => list.refetch()} />
        ) : list.isLoading || !waNumber ? (
          <SkeletonRows rows={6} label={t("common.loading")} />
        ) : visible.length === 0 ? (
          <p className="p-4 text-center text-sm text-slate-600">{t("inbox.noConversations")}</p>
        ) : (
          <ul>
            {visible.map((c) => {
              const name = contactDisplayName(c.contact);
              return (
                <li key={c.id}>
                  <button
                    type="button"
                    onClick={() => onSelect(c)}
                    aria-current={selectedId === c.id ? "true" : undefined}
                    data-testid="conversation-row"
                    data-conversation-id={c.id}
                    data-unread={c.unread_count}
                    className={cx(
                      // relative + overflow-hidden: nothing of a row (its hidden "Usted:" included) reaches outside it.
                      "relative flex w-full gap-2 overflow-hidden border-b border-slate-100 px-3 py-2 text-left hover:bg-slate-50",
                      selectedId === c.id && "bg-emerald-50",
                    )}
                  >
                    <span className="min-w-0 flex-1">
                      <span className="flex items-baseline gap-2">
                        <span className={cx("truncate", c.unread_count > 0 ? "font-semibold" : "font-medium")}>{name}</span>
                        <time
                          dateTime={c.last_message.created_at}
                          className={cx(
                            "ml-auto shrink-0 text-xs",
                            c.unread_count > 0 ? "font-semibold text-emerald-800" : "text-slate-600",
                          )}
                          data-testid="conversation-when"
                        >
                          {formatRecent(c.last_message.created_at, locale)}
                        </time>
                      </span>
                      <span className="flex items-center gap-2">
                        <span className="truncate text-sm text-slate-700" data-testid="conversation-preview">
                          {c.last_message.direction === "OUTBOUND" && <span className="sr-only">{t("inbox.you")}: </span>}
                          <TypeIcon type={c.last_message.type} />
                          {previewText(c.last_message.preview, t)}
                        </span>
                        <span className="ml-auto flex shrink-0 items-center gap-1">
                          <WaitingClock conv={c} alertMinutes={alertMinutes} />
                          {c.unread_count > 0 && (
                            <span
                              className="shrink-0 rounded-full bg-emerald-700 px-1.5 text-xs font-semibold text-white"
                              data-testid="unread-badge"
                              aria-label={t("inbox.unread", { count: c.unread_count })}
                            >
                              {c.unread_count}
                            </span>
                          )}
                        </span>
                      </span>
                      {c.contact.labels.length > 0 && (
                        <span className="mt-1 flex flex-wrap gap-1">
                          {c.contact.labels.map((l) => (
                            <LabelChip key={l.id} label={l} />
                          ))}
                        </span>
                      )}
                    </span>
                  </button>
                </li>
              );
            })}
          </ul>
        )}
        {list.hasNextPage && (
          <button
            type="button"
            className="w-full p-2 text-sm text-emerald-800 underline"
            onClick={() => list.fetchNextPage()}
            disabled={list.isFetchingNextPage}
          >
            {list.isFetchingNextPage ? t("common.loading") : t("inbox.more")}
          </button>
        )}
      </div>
    </section>
  );
}
