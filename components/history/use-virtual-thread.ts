"use client";
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, type UIEvent } from "react";
import { useVirtualizer } from "@tanstack/react-virtual";
import type { HistoryPage } from "@/lib/api-client/types";
import { buildRows, type ThreadNote } from "./rows";

/** What both the viewer's and the inbox's history queries give (an infinite query of history pages). */
type PagedHistory = {
  data?: { pages: HistoryPage[] };
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  fetchNextPage: () => unknown;
};

/**
 * A conversation as a virtualized list (only the visible bubbles are in the DOM), shared by the
 * conversation viewer and the inbox: it opens at the newest message and stays pinned there while
 * the agent has not scrolled away; scrolling near the top loads the next (older) page and keeps
 * the message that was on screen in place.
 */
export function useVirtualThread(history: PagedHistory, follow = 0, notes?: ThreadNote[]) {
  const parentRef = useRef<HTMLDivElement>(null);
  // While an older page is on its way: the key of the message the agent last had at the top of the
  // screen, and how far below the scroller's top edge it sat (negative when partly above it).
  const anchorKey = useRef<string | null>(null);
  const anchorFromTop = useRef(0);
  const rowsAtRequest = useRef(0);
  const atBottom = useRef(true);

  const pages = history.data?.pages;
  const rows = useMemo(() => buildRows(pages ?? [], !!history.hasNextPage, notes), [pages, history.hasNextPage, notes]);

  // The React Compiler is not enabled, so the virtualizer's unmemoizable API is fine here.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => parentRef.current,
    estimateSize: (i) => (rows[i].kind === "msg" ? 88 : 40),
    getItemKey: (i) => rows[i].key,
    overscan: 10,
  });
  const items = virtualizer.getVirtualItems();
  const totalSize = virtualizer.getTotalSize();
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = history;

  // The anchor is the first message on screen (not the "loading" row, which stays on top). It is
  // noted when the older page is asked for and again at every scroll while it is on its way, so the
  // page lands under what the agent sees then, however far they scrolled meanwhile.
  const noteAnchor = useCallback(
    (keepIfNone = false) => {
      const el = parentRef.current;
      const first = el ? virtualizer.getVirtualItems().find((vi) => vi.end > el.scrollTop && rows[vi.index]?.kind === "msg") : undefined;
      if (!first && keepIfNone) return;
      anchorKey.current = first ? String(first.key) : null;
      anchorFromTop.current = first && el ? first.start - el.scrollTop : 0;
    },
    [virtualizer, rows],
  );

  const loadOlder = useCallback(() => {
    if (!hasNextPage || isFetchingNextPage) return;
    noteAnchor();
    rowsAtRequest.current = rows.length;
    fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, noteAnchor, rows]);

  // Pinned to the newest message while the agent has not scrolled away: bubbles are measured as
  // they render, so the total height settles over a few frames and the pin follows it.
  useLayoutEffect(() => {
    const el = parentRef.current;
    if (!el || rows.length <= 1 || anchorKey.current || !atBottom.current) return;
    el.scrollTop = el.scrollHeight;
    // A first page shorter than the window gives nothing to scroll: fetch older right away.
    if (el.scrollHeight <= el.clientHeight + 1) loadOlder();
  }, [totalSize, rows.length, loadOlder]);

  // An image (or a video's first frame) that loads makes its bubble taller after the rows were
  // measured and pinned: the newest message would end cut off below the fold. Media `load` events
  // do not bubble, so the scroller listens in the capture phase, and re-pins while the agent is at
  // the bottom (never when they scrolled back, nor while older messages are being put in place).
  const scroller = parentRef.current;
  useEffect(() => {
    if (!scroller) return;
    const pin = () => {
      if (atBottom.current && !anchorKey.current) scroller.scrollTop = scroller.scrollHeight;
    };
    scroller.addEventListener("load", pin, true);
    scroller.addEventListener("loadedmetadata", pin, true);
    return () => {
      scroller.removeEventListener("load", pin, true);
      scroller.removeEventListener("loadedmetadata", pin, true);
    };
  }, [scroller]);

  // The agent just sent something: back to the newest message (where the new bubble is), even
  // if they had scrolled away, and pinned there while the bubble settles.
  useLayoutEffect(() => {
    if (!follow) return;
    atBottom.current = true;
    const el = parentRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [follow]);

  // After older messages were prepended, put the message that was at the top back where it was,
  // before the browser paints. The scroll position is written at once rather than through the
  // virtualizer's scrollToIndex: that one waits for a scroll in progress to end, and then jumped
  // the agent who had meanwhile scrolled on up (to the conversation's start) back to the anchor.
  useLayoutEffect(() => {
    if (!anchorKey.current || isFetchingNextPage || (rows.length === rowsAtRequest.current && hasNextPage)) return;
    const idx = rows.findIndex((r) => r.key === anchorKey.current);
    anchorKey.current = null;
    const start = idx >= 0 ? virtualizer.measurementsCache[idx]?.start : undefined;
    const el = parentRef.current;
    if (el && start !== undefined) el.scrollTop = start - anchorFromTop.current;
  }, [rows, isFetchingNextPage, hasNextPage, virtualizer]);

  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (anchorKey.current && isFetchingNextPage) noteAnchor(true);
    else if (el.scrollTop < 300) loadOlder();
  };

  return { parentRef, rows, virtualizer, items, totalSize, onScroll };
}
