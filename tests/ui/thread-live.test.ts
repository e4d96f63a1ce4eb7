import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
// query-core is what @tanstack/react-query re-exports (see tests/ui/inbox-ticks.test.ts).
import { InfiniteQueryObserver, QueryClient, type InfiniteData } from "@tanstack/query-core";
import { threadMessageCreated, threadQuery, withLive, type ThreadPage } from "@/lib/api-client/inbox-thread";
import { queryKeys } from "@/lib/api-client/query-keys";
import { buildRows } from "@/components/history/rows";
import type { Message } from "@/lib/api-client/types";

/**
 * A new message reaches the open thread from the moment it is mounted (docs/features/inbox.md,
 * "The thread's pages"): what the frame's one live-event handler does with `message.created` for
 * the threads (lib/api-client/inbox-live.ts calls it) and the thread's real query on a bare
 * QueryClient, against a fake messages endpoint whose every read the test answers when it chooses.
 */
const OWNER = { conversationId: 11, waNumber: "573001112233", contactId: 110 };

function msg(id: number, text = `m${id}`): Message {
  return {
    id,
    update_id: `u${id}`,
    customer_number: "573004445566",
    customer_id: null,
    sender: "CUSTOMER",
    direction: "INBOUND",
    type: "text",
    status: "RECEIVED",
    created_at: "2026-12-01 10:00:00",
    timestamp: 1_796_000_000 + id,
    payload: { text },
    agent_id: 0,
    agent_name: null,
  };
}

type Read = { kind: "head" | "older"; answer: (data: Message[], nextCursor?: string | null) => void };
let reads: Read[];

beforeEach(() => {
  reads = [];
  vi.stubGlobal("fetch", (url: string) => {
    const u = new URL(url, "http://app.test");
    expect(u.pathname).toBe(`/api/v1/conversations/${OWNER.conversationId}/messages`);
    return new Promise<Response>((resolve) => {
      reads.push({
        kind: u.searchParams.get("cursor") ? "older" : "head",
        answer: (data, nextCursor = null) =>
          resolve(new Response(JSON.stringify({ message: "ok", data, next_cursor: nextCursor }), { status: 200 })),
      });
    });
  });
});
afterEach(() => vi.unstubAllGlobals());

function created(id: number) {
  return {
    id,
    update_id: `u${id}`,
    wa_number: OWNER.waNumber,
    contact_id: OWNER.contactId,
    direction: "INBOUND",
    type: "text",
    status: "RECEIVED",
    created_at: "2026-12-01T10:00:00.000Z",
  };
}

/** The ids the thread shows, oldest first, as its rows are built (pages and live messages). */
function shown(qc: QueryClient): number[] {
  const data = qc.getQueryData<InfiniteData<ThreadPage>>(queryKeys.inbox.thread(OWNER.conversationId));
  const live = qc.getQueryData<Message[]>(queryKeys.inbox.live(OWNER.conversationId)) ?? [];
  return buildRows(withLive(data, live)?.pages ?? [], false).flatMap((r) => (r.kind === "msg" ? [r.m.id] : []));
}

function mount(qc: QueryClient) {
  const observer = new InfiniteQueryObserver(qc, threadQuery(qc, OWNER));
  const unsubscribe = observer.subscribe(() => undefined);
  return { observer, unsubscribe };
}

describe("the open thread and the event stream", () => {
  it("shows a message that arrives while the first page is still loading, once", async () => {
    const qc = new QueryClient();
    const { unsubscribe } = mount(qc);
    await vi.waitFor(() => expect(reads.map((r) => r.kind)).toEqual(["head"]));

    // The customer writes while the first page is on its way (read before the message was stored).
    threadMessageCreated(qc, created(3));
    await vi.waitFor(() => expect(reads.map((r) => r.kind)).toEqual(["head", "head"]));
    reads[1].answer([msg(3, "SALIR"), msg(2), msg(1)]);
    await vi.waitFor(() => expect(qc.getQueryData<Message[]>(queryKeys.inbox.live(OWNER.conversationId))?.[0]?.id).toBe(3));

    reads[0].answer([msg(2), msg(1)]);
    await vi.waitFor(() => expect(shown(qc)).toEqual([1, 2, 3]));
    unsubscribe();
  });

  it("keeps a message that arrived while an older page was loading when that page lands", async () => {
    const qc = new QueryClient();
    const { observer, unsubscribe } = mount(qc);
    await vi.waitFor(() => expect(reads).toHaveLength(1));
    reads[0].answer([msg(5), msg(4)], "m4");
    await vi.waitFor(() => expect(shown(qc)).toEqual([4, 5]));

    const older = observer.fetchNextPage();
    await vi.waitFor(() => expect(reads.map((r) => r.kind)).toEqual(["head", "older"]));
    threadMessageCreated(qc, created(6));
    await vi.waitFor(() => expect(reads).toHaveLength(3));
    reads[2].answer([msg(6), msg(5), msg(4)]);
    await vi.waitFor(() => expect(shown(qc)).toEqual([4, 5, 6]));

    // The older page writes back the pages it started from: the new message stays.
    reads[1].answer([msg(3), msg(2)]);
    await older;
    expect(shown(qc)).toEqual([2, 3, 4, 5, 6]);
    unsubscribe();
  });

  it("reads the newest page at most twice for a burst of messages, and misses none", async () => {
    const qc = new QueryClient();
    const { unsubscribe } = mount(qc);
    await vi.waitFor(() => expect(reads).toHaveLength(1));
    reads[0].answer([msg(1)]);
    await vi.waitFor(() => expect(shown(qc)).toEqual([1]));

    threadMessageCreated(qc, created(2));
    await vi.waitFor(() => expect(reads).toHaveLength(2));
    threadMessageCreated(qc, created(3));
    threadMessageCreated(qc, created(4));
    // The read in flight was answered before 3 and 4 were stored: one more read brings both.
    reads[1].answer([msg(2), msg(1)]);
    await vi.waitFor(() => expect(reads).toHaveLength(3));
    reads[2].answer([msg(4), msg(3), msg(2), msg(1)]);
    await vi.waitFor(() => expect(shown(qc)).toEqual([1, 2, 3, 4]));
    expect(reads).toHaveLength(3);
    unsubscribe();
  });

  it("leaves another conversation's thread alone", async () => {
    const qc = new QueryClient();
    const { unsubscribe } = mount(qc);
    await vi.waitFor(() => expect(reads).toHaveLength(1));
    threadMessageCreated(qc, { ...created(9), contact_id: OWNER.contactId + 1 });
    threadMessageCreated(qc, { ...created(10), wa_number: "570000000000" });
    reads[0].answer([msg(1)]);
    await vi.waitFor(() => expect(shown(qc)).toEqual([1]));
    expect(reads).toHaveLength(1);
    unsubscribe();
  });
});
