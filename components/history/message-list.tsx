"use client";
import { useHistory, type HistoryParams } from "@/lib/api-client/history";
import { useI18n } from "@/lib/i18n";
import { MessageBubble } from "@/components/messages/message-bubble";
import { EmptyState, ErrorBox, Skeleton } from "@/components/ui";
import { formatDayHeading } from "@/lib/i18n/dates";
import type { Row } from "./rows";
import { useVirtualThread } from "./use-virtual-thread";

/**
 * The conversation as a virtualized list (only the visible bubbles are in the DOM), opening at
 * the newest message; scrolling near the top loads the next (older) page of the API and keeps
 * the message that was on screen in place.
 */
export function MessageList({ params, highlightUpdateId }: { params: HistoryParams; highlightUpdateId?: string | null }) {
  const { t, locale } = useI18n();
  const history = useHistory(params);
  const { parentRef, rows, virtualizer, items, totalSize, onScroll } = useVirtualThread(history);
  const total = history.data?.pages?.[0]?.pagination?.total_items;

  if (history.isError) return <ErrorBox error={history.error} onRetry={() => history.refetch()} />;
  if (history.isLoading) {
    return (
      <div role="status" aria-label={t("common.loading")} className="chat-bg space-y-3 rounded-lg p-4">
        {[40, 60, 30, 55].map((w, i) => (
          <Skeleton key={i} className={`h-12 ${i % 2 ? "ml-auto" : ""}`} />
        ))}
      </div>
    );
  }
  if (rows.length <= 1) return <EmptyState>{t("conv.empty")}</EmptyState>;

  const dayLabel = (day: string) => formatDayHeading(day, locale);

  const renderRow = (row: Row) => {
    if (row.kind === "top") {
      return <p className="py-3 text-center text-xs text-slate-600">{row.more ? t("conv.loadingOlder") : t("conv.start")}</p>;
    }
    if (row.kind === "day") {
      return (
        <div className="flex justify-center py-2" data-testid="day-separator">
          <span className="rounded-md bg-white/90 px-3 py-1 text-xs font-medium text-slate-700 shadow-sm">{dayLabel(row.day)}</span>
        </div>
      );
    }
    // The viewer shows the contract's history only; private notes are the inbox's.
    if (row.kind === "note") return null;
    return (
      <MessageBubble
        m={row.m}
        highlight={!!highlightUpdateId && row.m.update_id === highlightUpdateId}
        reactions={row.reactions}
        showRouting={row.showRouting}
      />
    );
  };

  return (
    <div>
      {total !== undefined && <p className="mb-1 text-xs text-slate-600">{t("conv.count", { count: total })}</p>}
      <div
        ref={parentRef}
        className="chat-bg h-[calc(100dvh-18rem)] min-h-80 overflow-y-auto rounded-lg border border-slate-200"
        role="log"
        aria-label={t("conv.messages")}
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
    </div>
  );
}
