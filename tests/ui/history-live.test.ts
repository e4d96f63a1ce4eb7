import { describe, expect, it } from "vitest";
import { mergeHead, patchStatus, rangeHoldsDay, type HistoryData } from "@/lib/api-client/history-cache";
import type { HistoryPage, Message } from "@/lib/api-client/types";

function msg(id: number, status: Message["status"], text = `m${id}`): Message {
  return {
    id,
    customer_number: "573009876543",
    customer_id: null,
    sender: "AGENT",
    direction: "OUTBOUND",
    type: "text",
    status,
    created_at: "2026-11-25 10:00:00",
    timestamp: 1_795_000_000 + id,
    payload: { text },
    agent_id: null,
    agent_name: null,
  };
}

function page(data: Message[], current: number, total: number, perPage = 2): HistoryPage {
  return {
    message: "ok",
    data,
    pagination: { total_items: total, items_per_page: perPage, current_page: current, total_pages: Math.ceil(total / perPage) },
  };
}

const cached = (): HistoryData => ({
  pages: [page([msg(4, "SENT"), msg(3, "DELIVERED")], 1, 4), page([msg(2, "READED"), msg(1, "READED")], 2, 4)],
  pageParams: [1, 2],
});

describe("the conversation viewer follows today's events", () => {
  it("is live only while its range holds today", () => {
    expect(rangeHoldsDay("2026-11-18", "2026-11-25", "2026-11-25")).toBe(true);
    expect(rangeHoldsDay("2026-11-25", "2026-11-25", "2026-11-25")).toBe(true);
    expect(rangeHoldsDay("2026-11-01", "2026-11-24", "2026-11-25")).toBe(false);
    expect(rangeHoldsDay("2026-11-26", "2026-11-30", "2026-11-25")).toBe(false);
  });

  it("moves a shown message's tick, on whatever page holds it, and leaves the rest alone", () => {
    const old = cached();
    const next = patchStatus(old, { id: 3, status: "READED", error: null })!;
    expect(next.pages[0].data.map((m) => m.status)).toEqual(["SENT", "READED"]);
    expect(next.pages[1]).toBe(old.pages[1]);
    const failed = patchStatus(old, { id: 1, status: "FAILED", error: { code: 131026, title: "Undeliverable" } })!;
    expect(failed.pages[1].data[1]).toMatchObject({ status: "FAILED", error: { code: 131026 } });
    // A message this range does not show changes nothing (not even the object).
    expect(patchStatus(old, { id: 99, status: "READED", error: null })).toBe(old);
    expect(patchStatus(undefined, { id: 3, status: "READED", error: null })).toBeUndefined();
  });

  it("merges a fresh first page: new messages join it, the count follows, a later tick is kept", () => {
    const old = patchStatus(cached(), { id: 4, status: "READED", error: null })!;
    // Read before the READED of 4 was applied, and after 5 and 6 arrived.
    const head = page([msg(6, "RECEIVED"), msg(5, "QUEUED"), msg(4, "DELIVERED"), msg(3, "DELIVERED")], 1, 6);
    const next = mergeHead(old, head)!;
    expect(next.pages[0].data.map((m) => [m.id, m.status])).toEqual([
      [6, "RECEIVED"],
      [5, "QUEUED"],
      [4, "READED"],
      [3, "DELIVERED"],
    ]);
    expect(next.pages[0].pagination?.total_items).toBe(6);
    // The page the agent scrolled in keeps its messages; no id is held twice on the first page.
    expect(next.pages[1].data.map((m) => m.id)).toEqual([2, 1]);
    expect(next.pageParams).toEqual([1, 2]);
  });

  it("updates an older page's copy when the fresh page holds it too (offsets moved)", () => {
    const head = page([msg(5, "QUEUED"), msg(4, "SENT"), msg(3, "READED")], 1, 5, 3);
    const old: HistoryData = { pages: [page([msg(4, "SENT")], 1, 4, 1), page([msg(3, "DELIVERED")], 2, 4, 1)], pageParams: [1, 2] };
    const next = mergeHead(old, head)!;
    expect(next.pages[0].data.map((m) => m.id)).toEqual([5, 4]);
    expect(next.pages[1].data[0].status).toBe("READED");
  });

  it("leaves a cache that holds nothing yet to the query's own fetch", () => {
    expect(mergeHead(undefined, page([msg(1, "QUEUED")], 1, 1))).toBeUndefined();
  });
});
