"use client";
import { useInfiniteQuery, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";
import { statusMemo } from "./status-memo";
import { refreshThreadHead, threadQuery, type ListData, type ThreadOwner } from "./inbox-thread";
import type { Conversation, ConversationList, ConversationResponse, Message, SendReplyResponse } from "./types";

/**
 * The inbox's data: conversations (list, one, read, assign, resolve), a conversation's whole
 * history and the reply send. The dashboard frame's one event stream keeps them current
 * (live-events.ts, inbox-live.ts).
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

export type { ThreadOwner, ThreadPage } from "./inbox-thread";

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
    queryKey: queryKeys.inbox.list(f),
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
    queryKey: queryKeys.inbox.one(id ?? 0),
    enabled: !!id,
    queryFn: () => apiFetch<ConversationResponse>(`/api/v1/conversations/${id}`).then((r) => memo.applyToConversation(r.data)),
  });
}

/** Applies `fn` to conversation `id` wherever it is cached (lists and the single query). */
export function patchConversation(qc: QueryClient, id: number, fn: (c: Conversation) => Conversation) {
  qc.setQueriesData<ListData>({ queryKey: queryKeys.inbox.listsAll }, (old) =>
    old ? { ...old, pages: old.pages.map((p) => ({ ...p, data: p.data.map((c) => (c.id === id ? fn(c) : c)) })) } : old,
  );
  qc.setQueryData<Conversation>(queryKeys.inbox.one(id), (old) => (old ? fn(old) : old));
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

function editPending(qc: QueryClient, body: ReplyInput, fn: (data: Message[]) => Message[]) {
  qc.setQueryData<Message[]>(queryKeys.inbox.pending(body.wa_number, body.customer_source), (old) => fn(old ?? []));
}

/**
 * The optimistic bubbles of one thread. They live beside the thread's infinite query, not in it:
 * a page of older history landing while a send is in flight writes back the pages it started
 * from, which would drop a bubble put into them.
 */
export function usePendingReplies(waNumber: string, source: string): Message[] {
  return (
    useQuery({
      queryKey: queryKeys.inbox.pending(waNumber, source),
      queryFn: () => [] as Message[],
      staleTime: Infinity,
      initialData: [] as Message[],
    }).data ?? []
  );
}

/**
 * A free-form reply inside the 24-hour window, shown at once: its bubble is shown before the
 * request leaves (status QUEUED), gives way to the server's copy once the thread holds it (the
 * thread head is fetched again when the send is answered), and goes if the send fails. Its
 * message.created event refreshes the thread on every other screen.
 */
export function useSendReply(agent: { id: number; name: string } | null = null, conversationId?: number) {
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
      if (conversationId) await refreshThreadHead(qc, conversationId).catch(() => undefined);
      editPending(qc, body, (data) => data.filter((m) => m.id !== context?.pendingId));
    },
    onError: (_err, body, context) => editPending(qc, body, (data) => data.filter((m) => m.id !== context?.pendingId)),
  });
}

/** A conversation's messages, newest first, a page at a time (the query is in inbox-thread.ts). */
export function useThread(owner: ThreadOwner) {
  return useInfiniteQuery(threadQuery(useQueryClient(), owner));
}

/**
 * The messages the event stream brought to a thread since it was mounted (inbox-thread.ts,
 * refreshThreadHead): never fetched by this query, only written by the live handler.
 */
export function useThreadLive(conversationId: number): Message[] {
  return (
    useQuery({
      queryKey: queryKeys.inbox.live(conversationId),
      queryFn: () => [] as Message[],
      staleTime: Infinity,
      initialData: [] as Message[],
    }).data ?? []
  );
}
