"use client";
import { useCallback, useLayoutEffect, useMemo, useRef, type UIEvent } from "react";
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
  const anchorKey = useRef<string | null>(null);
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

  const loadOlder = useCallback(() => {
    if (!hasNextPage || isFetchingNextPage) return;
    const el = parentRef.current;
    // The anchor is the first message on screen (not the "loading" row, which stays on top).
    const first = el ? virtualizer.getVirtualItems().find((vi) => vi.end > el.scrollTop && rows[vi.index]?.kind === "msg") : undefined;
    anchorKey.current = first ? String(first.key) : null;
    rowsAtRequest.current = rows.length;
    fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, virtualizer, rows]);

  // Pinned to the newest message while the agent has not scrolled away: bubbles are measured as
  // they render, so the total height settles over a few frames and the pin follows it.
  useLayoutEffect(() => {
    const el = parentRef.current;
    if (!el || rows.length <= 1 || anchorKey.current || !atBottom.current) return;
    el.scrollTop = el.scrollHeight;
    // A first page shorter than the window gives nothing to scroll: fetch older right away.
    if (el.scrollHeight <= el.clientHeight + 1) loadOlder();
  }, [totalSize, rows.length, loadOlder]);

  // The agent just sent something: back to the newest message (where the new bubble is), even
  // if they had scrolled away, and pinned there while the bubble settles.
  useLayoutEffect(() => {
    if (!follow) return;
    atBottom.current = true;
    const el = parentRef.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [follow]);

  // After older messages were prepended, put the message that was at the top back in place.
  useLayoutEffect(() => {
    if (!anchorKey.current || isFetchingNextPage || (rows.length === rowsAtRequest.current && hasNextPage)) return;
    const idx = rows.findIndex((r) => r.key === anchorKey.current);
    anchorKey.current = null;
    if (idx >= 0) virtualizer.scrollToIndex(idx, { align: "start" });
  }, [rows, isFetchingNextPage, hasNextPage, virtualizer]);

  const onScroll = (e: UIEvent<HTMLDivElement>) => {
    const el = e.currentTarget;
    atBottom.current = el.scrollHeight - el.scrollTop - el.clientHeight < 80;
    if (el.scrollTop < 300) loadOlder();
  };

  return { parentRef, rows, virtualizer, items, totalSize, onScroll };
}
