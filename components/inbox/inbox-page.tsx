"use client";
import { useCallback, useEffect, useMemo, useState } from "react";
import Link from "next/link";
import { usePathname, useRouter, useSearchParams } from "next/navigation";
import { useLabels } from "@/lib/api-client/labels";
import { useMe } from "@/lib/api-client/auth";
import { useWaNumbers } from "@/lib/api-client/numbers";
import { useConversation, useMarkRead, useUpdateConversation } from "@/lib/api-client/inbox";
import { useLiveEvents } from "@/lib/api-client/live-stream";
import type { Conversation, Message } from "@/lib/api-client/types";
import { useT } from "@/lib/i18n";
import { contactDisplayName } from "@/lib/contacts/display-name";
import { cx, EmptyState, ErrorBox } from "@/components/ui";
import { ConversationList, filtersFromUrl, filtersToUrl, type ListFilters } from "./conversation-list";
import { Thread } from "./thread";
import { ContactPanel } from "./contact-panel";
import { ConversationComposer, type ComposerRequest } from "./conversation-composer";
import { ShortcutsDialog, useInboxShortcuts } from "./shortcuts";
import { InboxSkipLinks } from "./skip-links";
import { useDocumentTitle } from "@/components/layout/use-document-title";

/**
 * The inbox: conversations on the left, the open one in the middle, its contact on the right.
 * The open conversation and the phone view live in the URL (`?c=<id>&view=contact`), so back
 * navigation works at phone width where the three are separate screens.
 */
export function InboxPage() {
  const t = useT();
  const router = useRouter();
  const pathname = usePathname();
  const sp = useSearchParams();
  const numbers = useWaNumbers();
  const labels = useLabels();
  const me = useMe();
  const stream = useLiveEvents();
  const markRead = useMarkRead();
  const update = useUpdateConversation();

  const selectedId = Number(sp.get("c")) || null;
  const view = sp.get("view") === "contact" ? "contact" : selectedId ? "thread" : "list";
  const [waNumber, setWaNumber] = useState(sp.get("wa_number") ?? "");
  const effectiveNumber = waNumber || numbers.data?.[0]?.number || "";
  // The list's tab and filters live in the URL: a reload or a shared link shows the same list.
  const filters = useMemo(() => filtersFromUrl(sp), [sp]);
  const [shown, setShown] = useState<Conversation[]>([]);
  const [replyTo, setReplyTo] = useState<Message | null>(null);
  const [follow, setFollow] = useState(0);
  const [composerRequest, setComposerRequest] = useState<ComposerRequest | null>(null);
  const [helpOpen, setHelpOpen] = useState(false);

  const conv = useConversation(selectedId);
  const c = conv.data;

  const go = useCallback(
    (params: Record<string, string | null>, replace = false) => {
      const q = new URLSearchParams(sp.toString());
      for (const [k, v] of Object.entries(params))
        if (v === null) q.delete(k);
        else q.set(k, v);
      const url = `${pathname}${q.toString() ? `?${q}` : ""}`;
      if (replace) router.replace(url);
      else router.push(url);
    },
    [sp, pathname, router],
  );

  // The browser's own history call, as on the contacts page: Next's router follows it
  // (useSearchParams) without asking the server for the page again, so a filter answers at once.
  const setFilters = useCallback(
    (f: ListFilters) => {
      const q = new URLSearchParams(window.location.search);
      for (const [k, v] of Object.entries(filtersToUrl(f)))
        if (v === null) q.delete(k);
        else q.set(k, v);
      window.history.replaceState(null, "", `${pathname}${q.size ? `?${q}` : ""}`);
    },
    [pathname],
  );

  // Opening a conversation marks it read, and so does a message arriving while it is open and seen.
  const unread = c?.unread_count ?? 0;
  const { mutate: markReadMutate } = markRead;
  useEffect(() => {
    if (!selectedId || unread === 0) return;
    if (typeof document !== "undefined" && document.visibilityState !== "visible") return;
    markReadMutate(selectedId);
  }, [selectedId, unread, markReadMutate]);
  useEffect(() => {
    const onVisible = () => {
      if (document.visibilityState === "visible" && selectedId && unread > 0) markReadMutate(selectedId);
    };
    document.addEventListener("visibilitychange", onVisible);
    return () => document.removeEventListener("visibilitychange", onVisible);
  }, [selectedId, unread, markReadMutate]);

  // The tab title carries the unread count of the conversations listed.
  const totalUnread = shown.reduce((n, x) => n + (x.id === selectedId ? 0 : x.unread_count), 0);
  const inboxTitle = `${t("inbox.title")} · ${t("app.name")}`;
  useDocumentTitle(totalUnread > 0 ? `(${totalUnread}) ${inboxTitle}` : inboxTitle);

  const source = c ? (c.contact.customer_number ?? c.contact.customer_id ?? "") : "";
  const mine = !!c && !!me.data && c.assignee_agent_id === me.data.id;

  const select = (x: Conversation) => {
    setReplyTo(null);
    // A shortcut's request was for the conversation it was pressed in, not the next one.
    setComposerRequest(null);
    go({ c: String(x.id), view: null });
  };
  const step = (by: 1 | -1) => {
    if (!shown.length) return;
    const at = shown.findIndex((x) => x.id === selectedId);
    const next = at < 0 ? (by === 1 ? 0 : shown.length - 1) : Math.min(shown.length - 1, Math.max(0, at + by));
    if (shown[next] && shown[next].id !== selectedId) select(shown[next]);
  };
  const openComposer = (kind: ComposerRequest["kind"]) => {
    if (!c) return;
    if (view !== "thread") go({ view: null });
    setComposerRequest((r) => ({ kind, n: (r?.n ?? 0) + 1 }));
  };
  // The label editor lives in the contact panel, its own screen at phone width.
  const openLabels = () => {
    if (!c) return;
    const trigger = () => document.querySelector<HTMLButtonElement>('aside [data-testid="label-picker-trigger"]');
    if (!trigger()?.offsetParent) go({ view: "contact" });
    requestAnimationFrame(() => requestAnimationFrame(() => trigger()?.focus()));
  };
  const focusList = () => {
    if (view !== "list") go({ view: null, c: null });
    requestAnimationFrame(() =>
      (
        document.querySelector<HTMLElement>('[data-testid="conversation-row"][aria-current="true"]') ??
        document.querySelector<HTMLElement>('[data-testid="conversation-row"]')
      )?.focus(),
    );
  };
  useInboxShortcuts({
    next: () => step(1),
    previous: () => step(-1),
    reply: () => openComposer("reply"),
    note: () => openComposer("note"),
    assignToMe: () => {
      if (c && me.data && c.assignee_agent_id !== me.data.id) update.mutate({ id: c.id, assignee_agent_id: me.data.id });
    },
    resolve: () => {
      if (c) update.mutate({ id: c.id, status: c.status === "open" ? "resolved" : "open" });
    },
    label: () => {
      openLabels();
      requestAnimationFrame(() =>
        requestAnimationFrame(() => document.querySelector<HTMLButtonElement>('aside [data-testid="label-picker-trigger"]')?.click()),
      );
    },
    help: () => setHelpOpen(true),
  });

  if (numbers.isError) return <ErrorBox error={numbers.error} onRetry={() => numbers.refetch()} />;

  return (
    <>
      <InboxSkipLinks onReply={() => (c ? openComposer("reply") : focusList())} onLabels={openLabels} onList={focusList} />
      <ShortcutsDialog open={helpOpen} onClose={() => setHelpOpen(false)} />
      <div
        className="flex h-0 min-h-[28rem] flex-1 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-sm"
        data-testid="inbox"
        data-stream={stream}
      >
        <h1 className="sr-only">{t("inbox.title")}</h1>
        <div className={cx("w-full flex-col border-r border-slate-200 lg:flex lg:w-80 lg:shrink-0", view === "list" ? "flex" : "hidden")}>
          <ConversationList
            numbers={numbers.data ?? []}
            waNumber={effectiveNumber}
            onNumber={(n) => {
              setWaNumber(n);
              go({ wa_number: n, c: null, view: null }, true);
            }}
            labels={labels.data ?? []}
            filters={filters}
            onFilters={setFilters}
            selectedId={selectedId}
            onSelect={select}
            onConversations={setShown}
          />
        </div>
        <div className={cx("min-w-0 flex-1 flex-col lg:flex", view === "thread" ? "flex" : "hidden")}>
          {!selectedId ? (
            <div className="chat-bg flex flex-1 items-center justify-center p-6">
              <EmptyState>{t("inbox.pick")}</EmptyState>
            </div>
          ) : conv.isError ? (
            <ErrorBox error={conv.error} onRetry={() => conv.refetch()} />
          ) : !c ? (
            <div className="chat-bg flex-1" role="status" aria-label={t("common.loading")} />
          ) : (
            <>
              <header className="flex flex-wrap items-center gap-2 border-b border-slate-200 bg-slate-50 px-2 py-1.5">
                <button
                  type="button"
                  className="rounded px-2 py-1 text-sm lg:hidden"
                  onClick={() => go({ c: null, view: null })}
                  aria-label={t("inbox.back")}
                >
                  ←
                </button>
                <button
                  type="button"
                  className="min-w-[50%] flex-1 truncate text-left font-semibold lg:min-w-0 lg:pointer-events-none"
                  onClick={() => go({ view: "contact" })}
                  data-testid="thread-title"
                >
                  {contactDisplayName(c.contact)}
                </button>
                <span className="text-xs text-slate-700" data-testid="assignee">
                  {c.assignee_agent_id === null ? t("inbox.unassigned") : mine ? t("inbox.assignedToMe") : t("inbox.assignedOther")}
                </span>
                {!mine && me.data && (
                  <button
                    type="button"
                    className="rounded bg-emerald-700 px-2 py-1 text-xs font-medium text-white"
                    onClick={() => update.mutate({ id: c.id, assignee_agent_id: me.data!.id })}
                  >
                    {c.assignee_agent_id === null ? t("inbox.assignMe") : t("inbox.take")}
                  </button>
                )}
                {mine && (
                  <button
                    type="button"
                    className="rounded px-2 py-1 text-xs ring-1 ring-slate-300"
                    onClick={() => update.mutate({ id: c.id, assignee_agent_id: null })}
                  >
                    {t("inbox.unassign")}
                  </button>
                )}
                <button
                  type="button"
                  className="rounded px-2 py-1 text-xs ring-1 ring-slate-300"
                  onClick={() => update.mutate({ id: c.id, status: c.status === "open" ? "resolved" : "open" })}
                  data-testid="resolve"
                >
                  {c.status === "open" ? t("inbox.resolve") : t("inbox.reopen")}
                </button>
                <Link
                  href={`/history?wa_number=${encodeURIComponent(c.wa_number)}&customer=${encodeURIComponent(source)}`}
                  className="text-xs text-emerald-800 underline"
                >
                  {t("inbox.oldViewer")}
                </Link>
                <button
                  type="button"
                  className="rounded px-2 py-1 text-xs ring-1 ring-slate-300"
                  onClick={() => setHelpOpen(true)}
                  aria-label={t("keys.button")}
                  data-testid="shortcuts-button"
                >
                  ?
                </button>
              </header>
              <Thread
                key={c.id}
                conversationId={c.id}
                contactId={c.contact.id}
                waNumber={c.wa_number}
                source={source}
                onReply={setReplyTo}
                follow={follow}
              />
              <ConversationComposer
                key={c.id}
                conv={c}
                replyTo={replyTo}
                onClearReply={() => setReplyTo(null)}
                onSent={() => setFollow((n) => n + 1)}
                request={composerRequest}
              />
            </>
          )}
        </div>
        <aside
          className={cx(
            "w-full overflow-y-auto border-l border-slate-200 lg:block lg:w-72 lg:shrink-0",
            view === "contact" ? "block" : "hidden",
          )}
        >
          {c ? (
            <>
              <button
                type="button"
                className="m-2 rounded px-2 py-1 text-sm ring-1 ring-slate-300 lg:hidden"
                onClick={() => go({ view: null })}
              >
                ← {t("inbox.backToConversation")}
              </button>
              <ContactPanel
                conv={c}
                allLabels={labels.data ?? []}
                sandbox={numbers.data?.find((n) => n.number === c.wa_number)?.provider === "sandbox"}
              />
            </>
          ) : (
            <p className="p-4 text-sm text-slate-600">{t("inbox.noContact")}</p>
          )}
        </aside>
      </div>
    </>
  );
}
