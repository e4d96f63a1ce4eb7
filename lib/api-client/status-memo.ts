import type { QueryClient } from "@tanstack/react-query";
import { isBehind, laterOf } from "./message-status";
import type { Conversation, Message } from "./types";

/**
 * The inbox's ticks (thread bubbles and the list's last-message preview) fed by `message.status`.
 * Pure apart from `statusMemo`/`cachesIdle`, so tests/ui/inbox-ticks.test.ts runs it without a browser.
 *
 * Why a memo: a status event names a message by id, and the message may not be in any cache yet
 * when it arrives: a reply is only an optimistic bubble (no id) until the thread head is read
 * again, and that read, or an older page, may still be on its way. Patching
 * only what the cache holds dropped those events, and the copy that landed afterwards had been
 * read before them (stuck at SENT). So every status event is remembered (the latest tick per
 * message id) and every copy that enters a cache from the server (a thread page, the thread's
 * live messages, a list page, a conversation) takes the remembered tick when it is later than its own.
 * This is smaller than queueing events per thread behind every kind of read (the head refresh is
 * not a query fetch, and lists have their own reads) and does not depend on the order in which
 * reads and events land. The patch of what is cached still waits for in-flight fetches
 * (`cachesIdle`), because an infinite query writes back the pages it started from when its next
 * page lands.
 */
export type StatusEvent = { id: number; status: Message["status"]; error?: Message["error"] };

/** Enough for every reply and broadcast tick of a working session; the oldest are forgotten first. */
const MEMO_LIMIT = 5000;

export class StatusMemo {
  private byId = new Map<number, StatusEvent>();

  constructor(private readonly limit = MEMO_LIMIT) {}

  /** Keeps the event unless a later tick of the same message is already known (events may arrive out of order). */
  remember(ev: StatusEvent): void {
    const had = this.byId.get(ev.id);
    if (had && isBehind(ev.status, had.status)) return;
    this.byId.delete(ev.id);
    this.byId.set(ev.id, { id: ev.id, status: ev.status, error: ev.error ?? had?.error ?? null });
    if (this.byId.size > this.limit) this.byId.delete(this.byId.keys().next().value!);
  }

  /** A copy from the server, with the remembered tick when that is later than the copy's. */
  apply(m: Message): Message {
    const ev = this.byId.get(m.id);
    return ev ? laterOf(withStatus(m, ev), m) : m;
  }

  /** The same for a conversation's last-message preview. */
  applyToConversation(c: Conversation): Conversation {
    const ev = this.byId.get(c.last_message.id);
    if (!ev?.status || !isBehind(c.last_message.status, ev.status)) return c;
    return { ...c, last_message: { ...c.last_message, status: ev.status as Conversation["last_message"]["status"] } };
  }
}

function withStatus(m: Message, ev: StatusEvent): Message {
  return { ...m, status: ev.status, error: ev.error ?? m.error };
}

const memos = new WeakMap<QueryClient, StatusMemo>();

/** The memo of one query client (one per tab): shared by the event stream and every fetch that fills the caches. */
export function statusMemo(qc: QueryClient): StatusMemo {
  let memo = memos.get(qc);
  if (!memo) memos.set(qc, (memo = new StatusMemo()));
  return memo;
}

type Pages<P> = { pages: P[] };

/** A status event applied to every cached page that holds the message; a tick never moves backwards. */
export function patchPagesStatus<P extends { data: Message[] }, D extends Pages<P>>(old: D | undefined, ev: StatusEvent): D | undefined {
  if (!old || !old.pages.some((p) => p.data.some((m) => m.id === ev.id))) return old;
  return {
    ...old,
    pages: old.pages.map((p) =>
      p.data.some((m) => m.id === ev.id) ? { ...p, data: p.data.map((m) => (m.id === ev.id ? laterOf(m, withStatus(m, ev)) : m)) } : p,
    ),
  };
}

/** The same for the list rows whose last message it is. */
export function patchListStatus<P extends { data: Conversation[] }, D extends Pages<P>>(
  old: D | undefined,
  ev: StatusEvent,
): D | undefined {
  const hit = (c: Conversation) => c.last_message.id === ev.id && !!ev.status && isBehind(c.last_message.status, ev.status);
  if (!old || !old.pages.some((p) => p.data.some(hit))) return old;
  const status = ev.status as Conversation["last_message"]["status"];
  return {
    ...old,
    pages: old.pages.map((p) => ({ ...p, data: p.data.map((c) => (hit(c) ? { ...c, last_message: { ...c.last_message, status } } : c)) })),
  };
}

/**
 * Resolves once no thread and no conversation list is being fetched (checked every 50 ms, for 15 s
 * at most): an infinite query's next page writes back the pages it started from plus the new one,
 * so a tick patched in meanwhile would be overwritten. What is fetched meanwhile takes the tick from the memo instead.
 */
export async function cachesIdle(qc: QueryClient, keys: readonly (readonly unknown[])[]) {
  const busy = () => keys.some((queryKey) => qc.isFetching({ queryKey }) > 0);
  for (let i = 0; i < 300 && busy(); i++) await new Promise((r) => setTimeout(r, 50));
}
