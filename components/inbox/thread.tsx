"use client";
import { useMemo } from "react";
import { isPendingMessage, usePendingReplies, useThread, useThreadLive } from "@/lib/api-client/inbox";
import { withLive } from "@/lib/api-client/inbox-thread";
import { useNotes } from "@/lib/api-client/notes";
import type { Message } from "@/lib/api-client/types";
import { useI18n } from "@/lib/i18n";
import { MessageBubble } from "@/components/messages/message-bubble";
import { ErrorBox, Skeleton } from "@/components/ui";
import type { Row } from "@/components/history/rows";
import { formatDayHeading } from "@/lib/i18n/dates";
import { useVirtualThread } from "@/components/history/use-virtual-thread";
import { NoteBubble } from "./note-bubble";

/**
 * The open conversation: the viewer's virtualized bubbles, opening at its newest page (one request,
 * lib/api-client/inbox-thread.ts) and reading older pages as the agent scrolls up, pinned to the
 * newest message unless the agent scrolled back. New messages arrive through the event stream from
 * the moment the thread is mounted, even while its first page loads, and join it by id.
 */
export function Thread({
  conversationId,
  contactId,
  waNumber,
  source,
  onReply,
  follow = 0,
}: {
  conversationId: number;
  contactId: number;
  waNumber: string;
  source: string;
  onReply: (m: Message) => void;
  /** Changes when the agent sends: the thread scrolls to its newest message. */
  follow?: number;
}) {
  const { t, locale } = useI18n();
  const history = useThread({ conversationId, waNumber, contactId });
  const live = useThreadLive(conversationId);
  const notes = useNotes(conversationId);
  const pendingReplies = usePendingReplies(waNumber, source);
  // What the stream brought, then the agent's bubbles not yet in the history, go on as more pages
  // (rows are sorted and deduplicated by id).
  const data = history.data;
  const pages = useMemo(() => {
    const withStream = withLive(data, live);
    if (!withStream || !pendingReplies.length) return withStream;
    const loaded = new Set(withStream.pages.flatMap((p) => p.data.map((m) => m.update_id)));
    const shown = pendingReplies.filter((m) => !(m.update_id && loaded.has(m.update_id)));
    return { ...withStream, pages: [{ message: "", data: shown, pagination: null, next_cursor: null }, ...withStream.pages] };
  }, [data, live, pendingReplies]);
  const { parentRef, rows, virtualizer, items, totalSize, onScroll } = useVirtualThread(
    {
      data: pages,
      hasNextPage: history.hasNextPage,
      isFetchingNextPage: history.isFetchingNextPage,
      fetchNextPage: history.fetchNextPage,
    },
    follow,
    notes.data,
  );

  if (history.isError) return <ErrorBox error={history.error} onRetry={() => history.refetch()} />;
  if (history.isLoading) {
    return (
      <div role="status" aria-label={t("common.loading")} className="chat-bg flex-1 space-y-3 p-4">
        {[40, 60, 30, 55].map((w, i) => (
          <Skeleton key={i} className={`h-12 ${i % 2 ? "ml-auto" : ""}`} />
        ))}
      </div>
    );
  }

  const dayLabel = (day: string) => formatDayHeading(day, locale);

  const renderRow = (row: Row) => {
    if (row.kind === "top") {
      return <p className="py-3 text-center text-xs text-slate-700">{row.more ? t("conv.loadingOlder") : t("inbox.historyStart")}</p>;
    }
    if (row.kind === "day") {
      return (
        <div className="flex justify-center py-2" data-testid="day-separator">
          <span className="rounded-md bg-white/90 px-3 py-1 text-xs font-medium text-slate-700 shadow-sm">{dayLabel(row.day)}</span>
        </div>
      );
    }
    if (row.kind === "note") return <NoteBubble note={row.note} />;
    const m = row.m;
    const pending = isPendingMessage(m);
    return (
      <div className="group relative" data-pending={pending || undefined}>
        <MessageBubble m={m} />
        {m.update_id && !pending && (
          <button
            type="button"
            onClick={() => onReply(m)}
            className={`absolute top-1 rounded bg-white/90 px-1.5 text-xs text-slate-700 opacity-0 shadow-sm focus:opacity-100 group-hover:opacity-100 ${m.direction === "INBOUND" ? "right-3" : "left-3"}`}
            aria-label={t("inbox.replyTo")}
            data-testid="reply-to-button"
          >
            ↩
          </button>
        )}
      </div>
    );
  };

  return (
    <div
      ref={parentRef}
      className="chat-bg min-h-0 flex-1 overflow-y-auto"
      role="log"
      aria-label={t("conv.messages")}
      aria-live="polite"
      tabIndex={0}
      data-testid="message-scroller"
      onScroll={onScroll}
    >
      <div style={{ height: totalSize, position: "relative", width: "100%" }}>
        {items.map((vi) => (
          <div
            key={vi.key}
            data-index={vi.index}
            ref={virtualizer.measureElement}
            style={{ position: "absolute", top: 0, left: 0, width: "100%", transform: `translateY(${vi.start}px)` }}
          >
            {renderRow(rows[vi.index])}
          </div>
        ))}
      </div>
    </div>
  );
}
