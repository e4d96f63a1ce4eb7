import type { InfiniteData, QueryClient } from "@tanstack/react-query";
import { apiFetch, qs } from "./fetch";
import { laterOf } from "./message-status";
import { queryKeys } from "./query-keys";
import { cachesIdle, patchListStatus, patchPagesStatus, statusMemo, type StatusEvent } from "./status-memo";
import type { ConversationList, ConversationMessagesPage, Message } from "./types";
import { refetchWhenIdle } from "./refetch-when-idle";

/**
 * The inbox's thread of one conversation: its pages, the messages the event stream brought while
 * it was open, and how `message.status` reaches both and the list rows. Free of React (types only
 * from TanStack), so tests/ui/inbox-ticks.test.ts and tests/ui/thread-live.test.ts run it on a
 * bare QueryClient; the hooks are in inbox.ts.
 */
export type ListData = InfiniteData<ConversationList, string | null>;

/* ---------------------------------------------------------------------------------------------- */
/* The pages                                                                                      */
/* ---------------------------------------------------------------------------------------------- */

/**
 * `GET /api/v1/conversations/{id}/messages` answers the newest messages of the conversation in
 * one request, whatever its age, and older pages by `next_cursor` (docs/features/inbox.md, "The
 * thread's pages"). A page here is a history page (what the viewer's rows take) with its cursor.
 */
const PER_PAGE = 50;

export type ThreadPage = { message: string; data: Message[]; pagination: null; next_cursor: string | null };
export type ThreadData = InfiniteData<ThreadPage, string | null>;

/** Who the thread is about, so that an event naming (wa_number, contact_id) finds it, even while it loads. */
export type ThreadOwner = { conversationId: number; waNumber: string; contactId: number };

async function fetchThreadPage(conversationId: number, cursor: string | null, signal?: AbortSignal): Promise<ThreadPage> {
  const r = await apiFetch<ConversationMessagesPage>(
    `/api/v1/conversations/${conversationId}/messages${qs({ per_page: PER_PAGE, cursor })}`,
    { signal },
  );
  return { message: r.message, data: r.data, pagination: null, next_cursor: r.next_cursor };
}

/** The thread's query (useThread), as options so the tests run it on a bare QueryClient. */
export function threadQuery(qc: QueryClient, owner: ThreadOwner) {
  const memo = statusMemo(qc);
  return {
    queryKey: queryKeys.inbox.thread(owner.conversationId),
    meta: { thread: owner },
    initialPageParam: null as string | null,
    // A message first seen in this page may have had status events already (status-memo.ts).
    queryFn: ({ pageParam, signal }: { pageParam: string | null; signal?: AbortSignal }): Promise<ThreadPage> =>
      fetchThreadPage(owner.conversationId, pageParam, signal).then((p) => ({ ...p, data: p.data.map((m) => memo.apply(m)) })),
    getNextPageParam: (last: ThreadPage) => last.next_cursor ?? undefined,
    // Kept current by the event stream, not by polling.
    staleTime: Infinity,
  };
}

/* ---------------------------------------------------------------------------------------------- */
/* What the stream brought                                                                        */
/* ---------------------------------------------------------------------------------------------- */

/**
 * The messages that arrived while the thread was open live beside its pages (queryKeys.inbox.live),
 * never inside them: an infinite query writes back the pages it started from when a page lands, so
 * a message patched into the pages while the first page, or an older one, is on its way would be
 * dropped (the opted-out customer's "SALIR" was, behind the old walk through date windows). The
 * thread shows both, deduplicated by id (components/history/rows.ts), so from the moment it is
 * mounted a new message shows within one request, whatever its history is doing.
 */
function mergeById(held: Message[], fresh: Message[]): Message[] {
  const byId = new Map(held.map((m) => [m.id, m]));
  for (const m of fresh) {
    const had = byId.get(m.id);
    byId.set(m.id, had ? laterOf(had, m) : m);
  }
  return [...byId.values()].sort((a, b) => b.id - a.id);
}

/** The conversations whose thread is in the cache, shown or loading, for an event's (wa_number, contact_id). */
export function threadsOf(qc: QueryClient, waNumber: string, contactId: number): number[] {
  return qc
    .getQueryCache()
    .findAll({ queryKey: queryKeys.inbox.threadAll })
    .map((q) => (q.meta as { thread?: ThreadOwner } | undefined)?.thread)
    .filter((o): o is ThreadOwner => !!o && o.waNumber === waNumber && o.contactId === contactId)
    .map((o) => o.conversationId);
}

// One read of a thread's newest page at a time; events meanwhile ask for one more read after it.
const heads = new WeakMap<QueryClient, Map<number, { running: Promise<void>; again: boolean }>>();

/**
 * The thread's newest page read again and merged by id into its live messages (message.created,
 * or the agent's own send answered). Reads of one thread never overlap: events that arrive during
 * a read ask for exactly one more, so a burst of messages costs two requests and none is missed.
 */
export function refreshThreadHead(qc: QueryClient, conversationId: number): Promise<void> {
  let perClient = heads.get(qc);
  if (!perClient) heads.set(qc, (perClient = new Map()));
  const running = perClient.get(conversationId);
  if (running) {
    running.again = true;
    return running.running;
  }
  const state = { running: Promise.resolve(), again: false };
  const memo = statusMemo(qc);
  state.running = (async () => {
    try {
      do {
        state.again = false;
        const head = await fetchThreadPage(conversationId, null);
        qc.setQueryData<Message[]>(queryKeys.inbox.live(conversationId), (old) =>
          mergeById(
            old ?? [],
            head.data.map((m) => memo.apply(m)),
          ),
        );
      } while (state.again);
    } finally {
      perClient.delete(conversationId);
    }
  })();
  perClient.set(conversationId, state);
  return state.running;
}

/**
 * `message.created` for the threads of its conversation, shown or still loading their first page
 * (found by their owner, not by the lists, which may not hold the conversation).
 */
export function threadMessageCreated(qc: QueryClient, ev: { wa_number: string; contact_id: number }) {
  for (const id of threadsOf(qc, ev.wa_number, ev.contact_id)) {
    refreshThreadHead(qc, id).catch(() => refetchWhenIdle(qc, queryKeys.inbox.thread(id)));
  }
}

/** What the thread shows: its live messages as one more page before the fetched ones. */
export function withLive<D extends { pages: ThreadPage[] }>(data: D | undefined, live: Message[]): D | undefined {
  if (!data || !live.length) return data;
  return { ...data, pages: [{ message: "", data: live, pagination: null, next_cursor: null }, ...data.pages] };
}

/* ---------------------------------------------------------------------------------------------- */
/* Ticks                                                                                          */
/* ---------------------------------------------------------------------------------------------- */

/**
 * A `message.status` event: remembered at once, so whatever copy of the message is read from now
 * on, or is being read, keeps this tick; the live messages are patched at once (nothing fetches
 * them), the cached pages and list rows once no read of them is in flight (status-memo.ts says why).
 */
export async function applyStatusEvent(qc: QueryClient, ev: StatusEvent) {
  statusMemo(qc).remember(ev);
  qc.setQueriesData<Message[]>({ queryKey: queryKeys.inbox.liveAll }, (old) =>
    old?.some((m) => m.id === ev.id) ? patchPagesStatus({ pages: [{ data: old }] }, ev)!.pages[0].data : old,
  );
  await cachesIdle(qc, [queryKeys.inbox.threadAll, queryKeys.inbox.listsAll]);
  qc.setQueriesData<ThreadData>({ queryKey: queryKeys.inbox.threadAll }, (old) => patchPagesStatus(old, ev));
  qc.setQueriesData<ListData>({ queryKey: queryKeys.inbox.listsAll }, (old) => patchListStatus(old, ev));
}
