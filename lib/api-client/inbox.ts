"use client";
import { useEffect, useRef, useState } from "react";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { apiFetch } from "./fetch";
import { keys } from "./hooks";
import { patchOptOut } from "./contact-opt-out";
import { addNote, type Note } from "./notes";
import { statusMemo, type StatusEvent } from "./status-memo";
import { applyStatusEvent, inboxKeys, refreshThreadHead, threadQuery, type ListData } from "./inbox-thread";
import type {
  Contact,
  ContactList,
  Conversation,
  ConversationList,
  ConversationResponse,
  Label,
  Message,
  SendReplyResponse,
} from "./types";

/**
 * The inbox's data: conversations (list, one, read, assign, resolve), a conversation's whole
 * history, the reply send, and the one live event stream that keeps all of them current.
 */
export type ConversationFilters = {
  wa_number?: string;
  label_id?: number[];
  needs_reply?: boolean;
  unread?: boolean;
  search?: string;
  assignee?: "me" | "none";
  status?: "open" | "resolved";
  /** false: the customer wrote at least once ("Abiertas"); true: only a broadcast or send opened it. */
  outbound_only?: boolean;
  /** waiting: waiting for our reply, the longest-waiting first. */
  order?: "newest" | "waiting";
};

/** Kept here for the pages that import them from the inbox's module. */
export { inboxKeys };
export type { ThreadCursor, ThreadPage } from "./inbox-thread";

function listQueryString(f: ConversationFilters, cursor?: string | null): string {
  const sp = new URLSearchParams();
  if (f.wa_number) sp.set("wa_number", f.wa_number);
  for (const id of f.label_id ?? []) sp.append("label_id", String(id));
  if (f.needs_reply) sp.set("needs_reply", "1");
  if (f.unread) sp.set("unread", "1");
  if (f.search) sp.set("search", f.search);
  if (f.assignee) sp.set("assignee", f.assignee);
  if (f.status) sp.set("status", f.status);
  if (f.outbound_only !== undefined) sp.set("outbound_only", f.outbound_only ? "1" : "0");
  if (f.order && f.order !== "newest") sp.set("order", f.order);
  sp.set("per_page", "30");
  if (cursor) sp.set("cursor", cursor);
  return `?${sp.toString()}`;
}

export function useConversations(f: ConversationFilters) {
  const memo = statusMemo(useQueryClient());
  return useInfiniteQuery({
    queryKey: inboxKeys.list(f),
    initialPageParam: null as string | null,
    // Ticks heard while the page was on its way are not taken back (status-memo.ts).
    queryFn: ({ pageParam, signal }) =>
      apiFetch<ConversationList>(`/api/v1/conversations${listQueryString(f, pageParam)}`, { signal }).then((r) => ({
        ...r,
        data: r.data.map((c) => memo.applyToConversation(c)),
      })),
    getNextPageParam: (last) => last.next_cursor ?? undefined,
    enabled: !!f.wa_number,
  });
}

export function useConversation(id: number | null) {
  const memo = statusMemo(useQueryClient());
  return useQuery({
    queryKey: inboxKeys.one(id ?? 0),
    enabled: !!id,
    queryFn: () => apiFetch<ConversationResponse>(`/api/v1/conversations/${id}`).then((r) => memo.applyToConversation(r.data)),
  });
}

/** Applies `fn` to conversation `id` wherever it is cached (lists and the single query). */
function patchConversation(qc: QueryClient, id: number, fn: (c: Conversation) => Conversation) {
  qc.setQueriesData<ListData>({ queryKey: inboxKeys.listsAll }, (old) =>
    old ? { ...old, pages: old.pages.map((p) => ({ ...p, data: p.data.map((c) => (c.id === id ? fn(c) : c)) })) } : old,
  );
  qc.setQueryData<Conversation>(inboxKeys.one(id), (old) => (old ? fn(old) : old));
}

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
  for (const [key, old] of qc.getQueriesData<ListData>({ queryKey: inboxKeys.listsAll })) {
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
  for (const key of stale) qc.invalidateQueries({ queryKey: key, exact: true });
  qc.setQueryData(inboxKeys.one(conv.id), conv);
  return found;
}

/** Whether a conversation belongs in a list: false when a filter says no, undefined when the client cannot tell (search, "mine"). */
export function fitsFilters(c: Conversation, f: ConversationFilters): boolean | undefined {
  if (f.status && c.status !== f.status) return false;
  if (f.outbound_only !== undefined && (c.last_inbound_at === null) !== f.outbound_only) return false;
  if ((f.needs_reply || f.order === "waiting") && c.last_message.direction !== "INBOUND") return false;
  if (f.unread && c.unread_count === 0) return false;
  if (f.assignee === "none" && c.assignee_agent_id !== null) return false;
  if (f.label_id?.length && !c.contact.labels.some((l) => f.label_id!.includes(l.id))) return false;
  return f.search || f.assignee === "me" ? undefined : true;
}

function findConversation(qc: QueryClient, waNumber: string, contactId: number): Conversation | undefined {
  const match = (x: Conversation | undefined) => !!x && x.wa_number === waNumber && x.contact.id === contactId;
  for (const [, data] of qc.getQueriesData<ListData>({ queryKey: inboxKeys.listsAll })) {
    for (const p of data?.pages ?? []) {
      const c = p.data.find(match);
      if (c) return c;
    }
  }
  // A conversation opened by its link may be in no list (another number, another tab's filters).
  for (const [, c] of qc.getQueriesData<Conversation>({ queryKey: ["conversation"] })) if (match(c)) return c;
  return undefined;
}

export function useMarkRead() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch(`/api/v1/conversations/${id}/read`, { method: "POST" }),
    onMutate: (id) => patchConversation(qc, id, (c) => ({ ...c, unread_count: 0 })),
  });
}

export function useUpdateConversation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: { id: number; assignee_agent_id?: number | null; status?: "open" | "resolved" }) =>
      apiFetch<ConversationResponse>(`/api/v1/conversations/${id}`, { method: "PATCH", body }),
    onSuccess: (r) => patchConversation(qc, r.data.id, () => statusMemo(qc).applyToConversation(r.data)),
  });
}

export type ReplyInput = { wa_number: string; customer_source: string; type: string; payload: unknown; context_update_id?: string };

// Optimistic bubbles get ids above any real one, so they sort last (newest) until the server's
// copy replaces them. Once the send is answered a bubble carries the real update_id, and whichever
// refresh of the thread head brings that message first (the answer's or the event's) drops it.
let optimisticSeq = 0;
const PENDING_FLOOR = Number.MAX_SAFE_INTEGER - 1_000_000_000;

/** A bubble shown before the server stored it (no reply-to, no real id yet). */
export function isPendingMessage(m: Message): boolean {
  return m.id > PENDING_FLOOR;
}

function wallTime(d: Date): string {
  const p = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}`;
}

function optimisticMessage(body: ReplyInput, agent: { id: number; name: string } | null): Message {
  const now = new Date();
  const payload = body.payload && typeof body.payload === "object" ? (body.payload as Record<string, unknown>) : null;
  return {
    id: Number.MAX_SAFE_INTEGER - ++optimisticSeq,
    update_id: undefined,
    customer_number: null,
    customer_id: null,
    sender: "AGENT",
    direction: "OUTBOUND",
    type: body.type,
    status: "QUEUED",
    created_at: wallTime(now),
    timestamp: Math.floor(now.getTime() / 1000),
    payload,
    agent_id: agent?.id ?? null,
    agent_name: agent?.name ?? null,
  };
}

const pendingKey = (waNumber: string, source: string) => ["thread-pending", waNumber, source] as const;

function editPending(qc: QueryClient, body: ReplyInput, fn: (data: Message[]) => Message[]) {
  qc.setQueryData<Message[]>(pendingKey(body.wa_number, body.customer_source), (old) => fn(old ?? []));
}

/**
 * The optimistic bubbles of one thread. They live beside the thread's infinite query, not in it:
 * a page of older history landing while a send is in flight writes back the pages it started
 * from, which would drop a bubble put into them.
 */
export function usePendingReplies(waNumber: string, source: string): Message[] {
  return (
    useQuery({ queryKey: pendingKey(waNumber, source), queryFn: () => [] as Message[], staleTime: Infinity, initialData: [] as Message[] })
      .data ?? []
  );
}

/**
 * A free-form reply inside the 24-hour window, shown at once: its bubble is shown before the
 * request leaves (status QUEUED), gives way to the server's copy once the thread holds it (the
 * thread head is fetched again when the send is answered), and goes if the send fails. Its
 * message.created event refreshes the thread on every other screen.
 */
export function useSendReply(agent: { id: number; name: string } | null = null) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: ReplyInput) => apiFetch<SendReplyResponse>("/api/v1/messages/whatsapp/send", { method: "POST", body }),
    onMutate: (body) => {
      const pending = optimisticMessage(body, agent);
      editPending(qc, body, (data) => [...data, pending]);
      return { pendingId: pending.id };
    },
    onSuccess: async (r, body, context) => {
      // With its real update_id, the thread drops the bubble as soon as it holds the message.
      editPending(qc, body, (data) => data.map((m) => (m.id === context?.pendingId ? { ...m, update_id: r.data.update_id } : m)));
      await refreshThreadHead(qc, body.wa_number, body.customer_source).catch(() => undefined);
      editPending(qc, body, (data) => data.filter((m) => m.id !== context?.pendingId));
    },
    onError: (_err, body, context) => editPending(qc, body, (data) => data.filter((m) => m.id !== context?.pendingId)),
  });
}

/** The customer's whole history, newest first (the walk and its query are in inbox-thread.ts). */
export function useThread(waNumber: string, source: string) {
  return useInfiniteQuery({ ...threadQuery(useQueryClient(), waNumber, source), enabled: !!waNumber && !!source });
}

/* ---------------------------------------------------------------------------------------------- */
/* The live event stream                                                                          */
/* ---------------------------------------------------------------------------------------------- */

type MessageCreated = {
  id: number;
  update_id: string;
  wa_number: string;
  contact_id: number;
  direction: "INBOUND" | "OUTBOUND";
  type: string;
  status: Conversation["last_message"]["status"];
  created_at: string;
};
type MessageStatus = StatusEvent & { update_id: string };

/** Threads cached for (wa_number, contact): keyed by customer number or customer_id. */
function threadKeysFor(qc: QueryClient, conv: Conversation) {
  const sources = [conv.contact.customer_number, conv.contact.customer_id].filter(Boolean) as string[];
  return sources.map((s) => inboxKeys.thread(conv.wa_number, s)).filter((k) => qc.getQueryData(k));
}

export type StreamState = "connecting" | "open" | "down";

/**
 * The browser's one EventSource (mounted once by the dashboard frame). Each event is applied to
 * the TanStack caches with setQueryData; only `reset` (a gap the server's log cannot fill)
 * refetches. The browser reconnects by itself and resends Last-Event-ID, so missed events replay.
 */
export function useEventStream(onEvent?: (type: string, data: unknown) => void): StreamState {
  const qc = useQueryClient();
  const [state, setState] = useState<StreamState>("connecting");
  const onEventRef = useRef(onEvent);
  useEffect(() => {
    onEventRef.current = onEvent;
  }, [onEvent]);

  // A stream the browser gave up on (an HTTP error, not a dropped connection) is opened again.
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    const es = new EventSource("/api/v1/events");
    const on = (type: string, fn: (data: never) => void) =>
      es.addEventListener(type, (e) => {
        let data: unknown;
        try {
          data = JSON.parse((e as MessageEvent).data);
        } catch {
          return;
        }
        fn(data as never);
        onEventRef.current?.(type, data);
      });

    on("message.created", (ev: MessageCreated) => {
      const conv = findConversation(qc, ev.wa_number, ev.contact_id);
      if (!conv) {
        // A conversation no list shows yet: the lists learn about it from the server.
        qc.invalidateQueries({ queryKey: inboxKeys.listsAll });
        return;
      }
      apiFetch<ConversationResponse>(`/api/v1/conversations/${conv.id}`)
        .then((r) => {
          if (!upsertConversation(qc, r.data)) qc.invalidateQueries({ queryKey: inboxKeys.listsAll });
        })
        .catch(() => qc.invalidateQueries({ queryKey: inboxKeys.listsAll }));
      for (const key of threadKeysFor(qc, conv)) refreshThreadHead(qc, key[1], key[2]).catch(() => qc.invalidateQueries({ queryKey: key }));
    });

    on("message.status", (ev: MessageStatus) => applyStatusEvent(qc, ev));

    on("contact.labels", (ev: { contact_id: number; labels: Label[] }) => {
      qc.setQueriesData<ListData>({ queryKey: inboxKeys.listsAll }, (old) =>
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
      qc.setQueriesData<Conversation>({ queryKey: ["conversation"] }, (old) =>
        old && old.contact.id === ev.contact_id ? { ...old, contact: { ...old.contact, labels: ev.labels } } : old,
      );
      qc.setQueriesData<ContactList>({ queryKey: keys.contactsAll }, (old) =>
        old ? { ...old, data: old.data.map((c: Contact) => (c.id === ev.contact_id ? { ...c, labels: ev.labels } : c)) } : old,
      );
    });

    on("contact.updated", (ev: { contact_id: number; marketing_opt_out: Contact["marketing_opt_out"] }) =>
      patchOptOut(qc, ev.contact_id, ev.marketing_opt_out),
    );

    on("conversation.read", (ev: { id: number; unread_count: number }) =>
      patchConversation(qc, ev.id, (c) => ({ ...c, unread_count: ev.unread_count })),
    );

    on("conversation.updated", (ev: { id: number; assignee_agent_id?: number | null; status?: "open" | "resolved" }) =>
      patchConversation(qc, ev.id, (c) => ({
        ...c,
        ...(ev.assignee_agent_id !== undefined ? { assignee_agent_id: ev.assignee_agent_id } : {}),
        ...(ev.status !== undefined ? { status: ev.status } : {}),
      })),
    );

    on("note.created", (ev: Note) => addNote(qc, ev));

    // Applied by the broadcast pages through onEvent (lib/api-client/broadcasts.ts).
    on("broadcast.updated", () => undefined);

    es.addEventListener("reset", () => {
      qc.invalidateQueries({ queryKey: inboxKeys.listsAll });
      qc.invalidateQueries({ queryKey: ["conversation"] });
      qc.invalidateQueries({ queryKey: inboxKeys.threadAll });
      qc.invalidateQueries({ queryKey: keys.historyAll });
      qc.invalidateQueries({ queryKey: ["broadcasts"] });
      qc.invalidateQueries({ queryKey: ["notes"] });
    });
    es.onopen = () => setState("open");
    let retry: ReturnType<typeof setTimeout> | undefined;
    es.onerror = () => {
      if (es.readyState !== EventSource.CLOSED) return setState("connecting");
      setState("down");
      retry = setTimeout(() => setGeneration((g) => g + 1), 3000);
    };
    return () => {
      clearTimeout(retry);
      es.close();
    };
  }, [qc, generation]);

  return state;
}
