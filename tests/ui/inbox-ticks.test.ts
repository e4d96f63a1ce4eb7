import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
// query-core is what @tanstack/react-query re-exports; the React build cannot load under the
// react-server condition the test workers use (vitest.config.ts).
import { InfiniteQueryObserver, QueryClient, type InfiniteData } from "@tanstack/query-core";
import { applyStatusEvent, refreshThreadHead, threadQuery, withLive, type ThreadPage } from "@/lib/api-client/inbox-thread";
import { queryKeys } from "@/lib/api-client/query-keys";
import { buildRows } from "@/components/history/rows";
import { StatusMemo, patchListStatus } from "@/lib/api-client/status-memo";
import type { Conversation, ConversationList, Message } from "@/lib/api-client/types";

/**
 * The inbox thread's ticks against a fake messages endpoint: the real query, head refresh and
 * `message.status` handling of lib/api-client/inbox-thread.ts on a bare QueryClient, with each
 * read answered when the test says so (the order of reads and events is what these tests are about).
 */
const WA = "573001234567";
const SRC = "573009876543";
const OWNER = { conversationId: 7, waNumber: WA, contactId: 70 };

function msg(id: number, status: Message["status"], direction: Message["direction"] = "OUTBOUND"): Message {
  return {
    id,
    update_id: `u${id}`,
    customer_number: SRC,
    customer_id: null,
    sender: direction === "INBOUND" ? "CUSTOMER" : "AGENT",
    direction,
    type: "text",
    status,
    created_at: "2026-11-25 10:00:00",
    timestamp: 1_795_000_000 + id,
    payload: { text: `m${id}` },
    agent_id: null,
    agent_name: null,
  };
}

/** A read the test answers later. */
function deferred() {
  let resolve!: (data: Message[]) => void;
  const promise = new Promise<Message[]>((r) => (resolve = r));
  return { promise, resolve };
}

/** What the fake server answers: the newest page ("head", no cursor) and the older ones. */
let head: () => Message[] | Promise<Message[]>;
let older: () => Message[] | Promise<Message[]>;
let reads: string[];

beforeEach(() => {
  reads = [];
  older = () => [];
  vi.stubGlobal("fetch", async (url: string) => {
    const u = new URL(url, "http://app.test");
    expect(u.pathname).toBe(`/api/v1/conversations/${OWNER.conversationId}/messages`);
    const isHead = !u.searchParams.get("cursor");
    reads.push(isHead ? "head" : "older");
    const data = await (isHead ? head() : older());
    return new Response(JSON.stringify({ message: "ok", data, next_cursor: isHead ? "mold" : null }), { status: 200 });
  });
});
afterEach(() => vi.unstubAllGlobals());

type ThreadData = InfiniteData<ThreadPage>;
/** The ticks the thread shows: its pages and its live messages, as the rows are built from them. */
const statusesOf = (qc: QueryClient) => {
  const shown = withLive(
    qc.getQueryData<ThreadData>(queryKeys.inbox.thread(OWNER.conversationId)),
    qc.getQueryData<Message[]>(queryKeys.inbox.live(OWNER.conversationId)) ?? [],
  );
  return Object.fromEntries(buildRows(shown?.pages ?? [], false).flatMap((r) => (r.kind === "msg" ? [[r.m.id, r.m.status]] : [])));
};

describe("the inbox thread never loses or takes back a tick", () => {
  it("keeps a status that arrived before the message was in the cache (only the bubble was shown)", async () => {
    const qc = new QueryClient();
    head = () => [msg(1, "RECEIVED", "INBOUND")];
    await qc.fetchInfiniteQuery(threadQuery(qc, OWNER));

    // The send was answered: the head is read again, and that read says SENT...
    const stale = deferred();
    head = () => stale.promise;
    const refresh = refreshThreadHead(qc, OWNER.conversationId);
    await vi.waitFor(() => expect(reads.at(-1)).toBe("head"));
    // ...while the stream delivers the later ticks of a message the cache does not hold yet.
    await applyStatusEvent(qc, { id: 2, status: "DELIVERED", error: null });
    await applyStatusEvent(qc, { id: 2, status: "READED", error: null });
    expect(statusesOf(qc)).toEqual({ 1: "RECEIVED" });

    stale.resolve([msg(2, "SENT"), msg(1, "RECEIVED", "INBOUND")]);
    await refresh;
    expect(statusesOf(qc)).toEqual({ 1: "RECEIVED", 2: "READED" });

    // A thread opened only now (another tab's reply) shows it READED from its first read.
    const other = new QueryClient();
    await applyStatusEvent(other, { id: 2, status: "READED", error: null });
    head = () => [msg(2, "SENT")];
    await other.fetchInfiniteQuery(threadQuery(other, OWNER));
    expect(statusesOf(other)).toEqual({ 2: "READED" });
  });

  it("applies a status that arrives while an older page is being fetched, to held and incoming messages", async () => {
    const qc = new QueryClient();
    head = () => [msg(3, "SENT")];
    const observer = new InfiniteQueryObserver(qc, threadQuery(qc, OWNER));
    const unsubscribe = observer.subscribe(() => undefined);
    await vi.waitFor(() => expect(statusesOf(qc)).toEqual({ 3: "SENT" }));

    // The walk back: its page lands after the events, and writes back the pages it started from.
    const page = deferred();
    older = () => page.promise;
    const next = observer.fetchNextPage();
    await vi.waitFor(() => expect(reads.at(-1)).toBe("older"));
    const held = applyStatusEvent(qc, { id: 3, status: "READED", error: null });
    const incoming = applyStatusEvent(qc, { id: 2, status: "FAILED", error: { code: 131026, title: "Undeliverable" } });

    page.resolve([msg(2, "SENT")]);
    await next;
    await Promise.all([held, incoming]);
    expect(statusesOf(qc)).toEqual({ 3: "READED", 2: "FAILED" });
    const failed = qc.getQueryData<ThreadData>(queryKeys.inbox.thread(OWNER.conversationId))!.pages[1].data[0];
    expect(failed.error).toMatchObject({ code: 131026 });
    unsubscribe();
  });

  it("never takes a tick back when a copy read before a newer status lands after it", async () => {
    const qc = new QueryClient();
    head = () => [msg(4, "SENT")];
    await qc.fetchInfiniteQuery(threadQuery(qc, OWNER));
    await applyStatusEvent(qc, { id: 4, status: "READED", error: null });
    expect(statusesOf(qc)).toEqual({ 4: "READED" });

    // The head refresh of message.created, and a full read again (the stream's reset), both stale.
    head = () => [msg(5, "QUEUED"), msg(4, "DELIVERED")];
    await refreshThreadHead(qc, OWNER.conversationId);
    expect(statusesOf(qc)).toEqual({ 5: "QUEUED", 4: "READED" });
    await qc.refetchQueries({ queryKey: queryKeys.inbox.thread(OWNER.conversationId) });
    expect(statusesOf(qc)).toEqual({ 5: "QUEUED", 4: "READED" });

    // Events out of order: a late DELIVERED neither moves the cache nor the memory back.
    await applyStatusEvent(qc, { id: 4, status: "DELIVERED", error: null });
    expect(statusesOf(qc)).toEqual({ 5: "QUEUED", 4: "READED" });
    await qc.refetchQueries({ queryKey: queryKeys.inbox.thread(OWNER.conversationId) });
    expect(statusesOf(qc)[4]).toBe("READED");
  });
});

function conversation(lastId: number, status: Conversation["last_message"]["status"]): Conversation {
  return {
    id: 7,
    wa_number: WA,
    contact: { id: 9, name: "María", customer_number: SRC, customer_id: null, labels: [], marketing_opt_out: null },
    last_message: {
      id: lastId,
      update_id: `u${lastId}`,
      type: "text",
      direction: "OUTBOUND",
      sender: "AGENT",
      status,
      created_at: "",
      preview: "",
    },
    unread_count: 0,
    last_inbound_at: null,
    window_expires_at: null,
    waiting_since: null,
    opened_at: "",
    first_response_seconds: null,
    resolved_at: null,
    assignee_agent_id: null,
    status: "open",
  };
}

describe("the list's last-message preview", () => {
  it("keeps a tick heard before its row named the message, and never moves back", async () => {
    const qc = new QueryClient();
    const key = queryKeys.inbox.list({ wa_number: WA });
    const list = (c: Conversation): InfiniteData<ConversationList, string | null> => ({
      pages: [{ message: "ok", data: [c], next_cursor: null }],
      pageParams: [null],
    });
    // The row still shows the customer's message when the reply's READED arrives.
    qc.setQueryData(key, list(conversation(1, "RECEIVED")));
    await applyStatusEvent(qc, { id: 2, status: "READED", error: null });
    // The conversation read for message.created (before the tick) then lands: it keeps READED.
    const memo = new StatusMemo();
    memo.remember({ id: 2, status: "READED" });
    expect(memo.applyToConversation(conversation(2, "SENT")).last_message.status).toBe("READED");
    expect(memo.applyToConversation(conversation(3, "SENT")).last_message.status).toBe("SENT");

    qc.setQueryData(key, list(conversation(2, "READED")));
    const before = qc.getQueryData(key);
    expect(patchListStatus(before as InfiniteData<ConversationList>, { id: 2, status: "DELIVERED" })).toBe(before);
    await applyStatusEvent(qc, { id: 2, status: "DELIVERED", error: null });
    expect(qc.getQueryData<InfiniteData<ConversationList>>(key)!.pages[0].data[0].last_message.status).toBe("READED");
  });

  it("forgets the oldest ticks past its limit", () => {
    const memo = new StatusMemo(2);
    for (const id of [1, 2, 3]) memo.remember({ id, status: "READED" });
    expect(memo.apply(msg(1, "SENT")).status).toBe("SENT");
    expect(memo.apply(msg(3, "SENT")).status).toBe("READED");
  });
});
