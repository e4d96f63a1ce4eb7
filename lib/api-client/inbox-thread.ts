import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { apiFetch, qs } from "./fetch";
import { queryKeys } from "./query-keys";
import { cachesIdle, mergeThreadHead, patchListStatus, patchPagesStatus, statusMemo, type StatusEvent } from "./status-memo";
import type { ConversationList, HistoryPage } from "./types";

/**
 * The inbox's query keys, the whole-history walk of one conversation and how `message.status`
 * reaches the cached threads and list rows. Free of React (types only from TanStack), so
 * tests/ui/inbox-ticks.test.ts runs it on a bare QueryClient; the hooks are in inbox.ts.
 */
export type ListData = InfiniteData<ConversationList, string | null>;

/* ---------------------------------------------------------------------------------------------- */
/* The whole history of one conversation                                                          */
/* ---------------------------------------------------------------------------------------------- */

/**
 * The history API answers one date range of at most HISTORY_MAX_RANGE_DAYS (90) days. The inbox
 * shows the whole history without asking for dates: it walks backwards through consecutive
 * 89-day windows (newest first, each paged with order=DESC), skipping empty windows, until the
 * window starts before HISTORY_FLOOR (WhatsApp Business messages cannot be older). The first window
 * is open-ended ("until now") so newly arrived messages always belong to it.
 *
 * A short conversation still walks every empty window down to the floor (about 37 requests, ~2 s
 * here) when the thread asks for older pages: nothing in the contract says where a customer's
 * history starts (the conversation and the contact only carry their last activity, and a window
 * cannot exceed 90 days), so that walk stays. Ticks no longer depend on how long it takes
 * (status-memo.ts).
 */
const WINDOW_DAYS = 88;
const HISTORY_FLOOR = "2018-01-01";
const PER_PAGE = 50;

export type ThreadCursor = { to: string | null; from: string; page: number };

function ymdUTC(d: Date): string {
  return d.toISOString().slice(0, 10);
}
function daysBefore(day: string, n: number): string {
  const d = new Date(`${day}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - n);
  return ymdUTC(d);
}

export type ThreadPage = HistoryPage & { cursor: ThreadCursor };

function firstCursor(): ThreadCursor {
  return { to: null, from: daysBefore(ymdUTC(new Date()), WINDOW_DAYS), page: 1 };
}

async function fetchThreadPage(waNumber: string, source: string, cursor: ThreadCursor, signal?: AbortSignal): Promise<ThreadPage> {
  let c = cursor;
  // Empty windows are skipped here, so a page is either messages or the end of the history.
  for (;;) {
    const r = await apiFetch<HistoryPage>(
      `/api/v1/messages/whatsapp/history${qs({
        wa_number: waNumber,
        customer_source: source,
        from_date: c.from,
        to_date: c.to,
        order: "DESC",
        with_pagination: 1,
        per_page: PER_PAGE,
        page: c.page,
        include: "update_id,error,routed_to,provider_message_id",
      })}`,
      { signal },
    );
    if (r.data.length > 0 || c.page > 1 || c.from <= HISTORY_FLOOR) return { ...r, cursor: c };
    c = olderWindow(c);
  }
}

function olderWindow(c: ThreadCursor): ThreadCursor {
  const to = daysBefore(c.from, 1);
  return { to, from: daysBefore(to, WINDOW_DAYS), page: 1 };
}

function nextCursor(last: ThreadPage): ThreadCursor | undefined {
  const p = last.pagination;
  if (p && p.current_page < p.total_pages) return { ...last.cursor, page: p.current_page + 1 };
  if (last.cursor.from <= HISTORY_FLOOR) return undefined;
  return olderWindow(last.cursor);
}

/** The thread's query (useThread), as options so tests/ui/inbox-ticks.test.ts runs it on a bare QueryClient. */
export function threadQuery(qc: QueryClient, waNumber: string, source: string) {
  const memo = statusMemo(qc);
  return {
    queryKey: queryKeys.inbox.thread(waNumber, source),
    initialPageParam: firstCursor(),
    // A message first seen in this page may have had status events already (status-memo.ts).
    queryFn: ({ pageParam, signal }: { pageParam: ThreadCursor; signal?: AbortSignal }): Promise<ThreadPage> =>
      fetchThreadPage(waNumber, source, pageParam, signal).then((p) => ({ ...p, data: p.data.map((m) => memo.apply(m)) })),
    getNextPageParam: nextCursor,
    // Kept current by the event stream, not by polling.
    staleTime: Infinity,
  };
}

export type ThreadData = InfiniteData<ThreadPage, ThreadCursor>;

/** Newest messages of a thread merged into its first page (ids dedupe; the rest stays as scrolled). */
export async function refreshThreadHead(qc: QueryClient, waNumber: string, source: string) {
  const key = queryKeys.inbox.thread(waNumber, source);
  const head = await fetchThreadPage(waNumber, source, { ...firstCursor(), page: 1 });
  await cachesIdle(qc, [queryKeys.inbox.threadAll]);
  qc.setQueryData<ThreadData>(key, (old) => mergeThreadHead(old, head, statusMemo(qc)));
}

/**
 * A `message.status` event: remembered at once, so whatever copy of the message is read from now
 * on, or is being read, keeps this tick; the cached threads and list rows are patched once no read
 * of them is in flight (status-memo.ts says why both).
 */
export async function applyStatusEvent(qc: QueryClient, ev: StatusEvent) {
  statusMemo(qc).remember(ev);
  await cachesIdle(qc, [queryKeys.inbox.threadAll, queryKeys.inbox.listsAll]);
  qc.setQueriesData<ThreadData>({ queryKey: queryKeys.inbox.threadAll }, (old) => patchPagesStatus(old, ev));
  qc.setQueriesData<ListData>({ queryKey: queryKeys.inbox.listsAll }, (old) => patchListStatus(old, ev));
}
