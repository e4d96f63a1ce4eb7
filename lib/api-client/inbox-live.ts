import type { QueryClient, QueryKey } from "@tanstack/react-query";
import { apiFetch } from "./fetch";
import { fitsFilters, patchConversation, type ConversationFilters } from "./inbox";
import { applyStatusEvent, threadMessageCreated, type ListData } from "./inbox-thread";
import { queryKeys } from "./query-keys";
import { refetchWhenIdle } from "./refetch-when-idle";
import { statusMemo } from "./status-memo";
import type { EventData } from "@/lib/events/catalogue";
import type { Contact, ContactList, Conversation, ConversationResponse } from "./types";

/**
 * What the live events change in the inbox's caches (conversation lists, single conversations,
 * threads) and in the contacts lists; called by the frame's one handler (live-events.ts).
 */

export type MessageCreated = EventData<"message.created">;
export type MessageStatus = EventData<"message.status">;

/**
 * Puts a fresh copy of a conversation at the top of every newest-first list that holds it and it
 * still fits; a list it left (the customer answered a broadcast: out of "sin respuesta") drops it,
 * and a list that should now show it, or whose order it changed (waiting), is read again.
 */
function upsertConversation(qc: QueryClient, fetched: Conversation): boolean {
  // Read before a tick of its last message that the stream already delivered, maybe.
  const conv = statusMemo(qc).applyToConversation(fetched);
  let found = false;
  const stale: QueryKey[] = [];
  for (const [key, old] of qc.getQueriesData<ListData>({ queryKey: queryKeys.inbox.listsAll })) {
    const f = (key[1] ?? {}) as ConversationFilters;
    if (!old || (f.wa_number && f.wa_number !== conv.wa_number)) continue;
    const had = old.pages.some((p) => p.data.some((c) => c.id === conv.id));
    found ||= had;
    const fits = fitsFilters(conv, f);
    if (f.order === "waiting" || (!had && fits !== false)) {
      stale.push(key);
      continue;
    }
    if (!had) continue;
    const pages = old.pages.map((p) => ({ ...p, data: p.data.filter((c) => c.id !== conv.id) }));
    if (fits !== false) pages[0] = { ...pages[0], data: [conv, ...pages[0].data] };
    qc.setQueryData<ListData>(key, { ...old, pages });
  }
  for (const key of stale) refetchWhenIdle(qc, key, { exact: true });
  qc.setQueryData(queryKeys.inbox.one(conv.id), conv);
  return found;
}

function findConversation(qc: QueryClient, waNumber: string, contactId: number): Conversation | undefined {
  const match = (x: Conversation | undefined) => !!x && x.wa_number === waNumber && x.contact.id === contactId;
  for (const [, data] of qc.getQueriesData<ListData>({ queryKey: queryKeys.inbox.listsAll })) {
    for (const p of data?.pages ?? []) {
      const c = p.data.find(match);
      if (c) return c;
    }
  }
  // A conversation opened by its link may be in no list (another number, another tab's filters).
  for (const [, c] of qc.getQueriesData<Conversation>({ queryKey: queryKeys.inbox.oneAll })) if (match(c)) return c;
  return undefined;
}

/**
 * `message.created`: the thread of that conversation, shown or still loading its first page, reads
 * its newest page into its live messages (inbox-thread.ts); the conversation is read again into
 * the lists.
 */
export function inboxMessageCreated(qc: QueryClient, ev: MessageCreated) {
  threadMessageCreated(qc, ev);
  const conv = findConversation(qc, ev.wa_number, ev.contact_id);
  if (!conv) {
    // A conversation no list shows yet: the lists learn about it from the server.
    refetchWhenIdle(qc, queryKeys.inbox.listsAll);
    return;
  }
  apiFetch<ConversationResponse>(`/api/v1/conversations/${conv.id}`)
    .then((r) => {
      if (!upsertConversation(qc, r.data)) refetchWhenIdle(qc, queryKeys.inbox.listsAll);
    })
    .catch(() => refetchWhenIdle(qc, queryKeys.inbox.listsAll));
}

/** `message.status`: the tick in every cached thread and list row, remembered (status-memo.ts). */
export function inboxMessageStatus(qc: QueryClient, ev: MessageStatus) {
  return applyStatusEvent(qc, ev);
}

/** `contact.labels`: the contact's labels in the conversation lists, single conversations and contacts lists. */
export function contactLabels(qc: QueryClient, ev: EventData<"contact.labels">) {
  qc.setQueriesData<ListData>({ queryKey: queryKeys.inbox.listsAll }, (old) =>
    old
      ? {
          ...old,
          pages: old.pages.map((p) => ({
            ...p,
            data: p.data.map((c) => (c.contact.id === ev.contact_id ? { ...c, contact: { ...c.contact, labels: ev.labels } } : c)),
          })),
        }
      : old,
  );
  qc.setQueriesData<Conversation>({ queryKey: queryKeys.inbox.oneAll }, (old) =>
    old && old.contact.id === ev.contact_id ? { ...old, contact: { ...old.contact, labels: ev.labels } } : old,
  );
  qc.setQueriesData<ContactList>({ queryKey: queryKeys.contactsAll }, (old) =>
    old ? { ...old, data: old.data.map((c: Contact) => (c.id === ev.contact_id ? { ...c, labels: ev.labels } : c)) } : old,
  );
}

/** `conversation.read`. */
export function conversationRead(qc: QueryClient, ev: EventData<"conversation.read">) {
  patchConversation(qc, ev.id, (c) => ({ ...c, unread_count: ev.unread_count }));
}

/** `conversation.updated`: assignment and open/resolved. */
export function conversationUpdated(qc: QueryClient, ev: EventData<"conversation.updated">) {
  patchConversation(qc, ev.id, (c) => ({
    ...c,
    ...(ev.assignee_agent_id !== undefined ? { assignee_agent_id: ev.assignee_agent_id } : {}),
    ...(ev.status !== undefined ? { status: ev.status } : {}),
    // The clocks as the status trigger leaves them (db/functions/conversation_clocks.sql): resolving
    // ends the wait; the event has no times, so this screen's clock stands in for the server's.
    ...(ev.status === "resolved" && c.status !== "resolved" ? { waiting_since: null, resolved_at: new Date().toISOString() } : {}),
    ...(ev.status === "open" ? { resolved_at: null } : {}),
  }));
}

/**
 * The stream (re)opened. A new EventSource starts at "now", with no Last-Event-ID to replay from:
 * a message stored between the page's first read and the stream's open would never reach the
 * list. So the lists, conversations and threads on screen are read once more.
 */
export function inboxStreamOpened(qc: QueryClient) {
  refetchWhenIdle(qc, queryKeys.inbox.listsAll);
  refetchWhenIdle(qc, queryKeys.inbox.oneAll);
  refetchWhenIdle(qc, queryKeys.inbox.threadAll);
}
