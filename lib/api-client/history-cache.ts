import type { InfiniteData } from "@tanstack/react-query";
import { laterOf } from "./message-status";
import type { HistoryPage, Message } from "./types";

/**
 * The viewer's cached history (useHistory: pages of the 4.5 history, newest first) changed by the
 * live events of lib/api-client/history-live.ts. Pure, so they are tested without a browser.
 */
export type HistoryData = InfiniteData<HistoryPage, number>;

/**
 * Whether a `from`..`to` range (YYYY-MM-DD, both inclusive) holds `today`. The viewer writes its
 * range, and so today, as the browser's local dates (components/history/rows.ts `ymd`).
 */
export function rangeHoldsDay(from: string, to: string, today: string): boolean {
  return from <= today && today <= to;
}

/** A `message.status` event: the message's new status (and error) wherever a page holds it. */
export function patchStatus(
  old: HistoryData | undefined,
  ev: { id: number; status: Message["status"]; error?: Message["error"] },
): HistoryData | undefined {
  if (!old || !old.pages.some((p) => p.data.some((m) => m.id === ev.id))) return old;
  return {
    ...old,
    pages: old.pages.map((p) =>
      p.data.some((m) => m.id === ev.id)
        ? { ...p, data: p.data.map((m) => (m.id === ev.id ? { ...m, status: ev.status, error: ev.error ?? m.error } : m)) }
        : p,
    ),
  };
}

/**
 * A freshly fetched first page merged into the cache: messages not held yet join the first page,
 * the ones held take the fetched copy (unless the cache has a later status: a `message.status`
 * applied while the fetch was on its way must not take the tick back), wherever they are. The
 * first page takes the fresh count. Older pages, scrolled in by the agent, stay as they are: their
 * offsets moved, but ids dedupe what two pages both hold (rows.ts).
 */
export function mergeHead(old: HistoryData | undefined, head: HistoryPage): HistoryData | undefined {
  if (!old || old.pages.length === 0) return old;
  const fresh = new Map(head.data.map((m) => [m.id, m]));
  const held = new Set<number>();
  const pages = old.pages.map((p) => ({
    ...p,
    data: p.data.map((m) => {
      held.add(m.id);
      return laterOf(m, fresh.get(m.id));
    }),
  }));
  const added = head.data.filter((m) => !held.has(m.id));
  pages[0] = { ...pages[0], pagination: head.pagination, data: [...added, ...pages[0].data].sort((a, b) => b.id - a.id) };
  return { ...old, pages };
}
