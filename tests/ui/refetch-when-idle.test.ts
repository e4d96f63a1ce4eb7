import { describe, expect, it } from "vitest";
// query-core is what @tanstack/react-query re-exports (see inbox-ticks.test.ts for why not the React build).
import { InfiniteQueryObserver, QueryClient, type InfiniteData } from "@tanstack/query-core";
import { refetchWhenIdle } from "@/lib/api-client/refetch-when-idle";
import { waitFor } from "../helpers/wait";

/**
 * Event-driven invalidation (lib/api-client/refetch-when-idle.ts) on a bare QueryClient: an infinite
 * query's older page on its way is not cancelled, and the pages are read again once it has landed;
 * a query's first read on its way is followed by another, where `invalidateQueries` alone joins
 * it and the invalidation is lost; an idle query is read again at once.
 */
type Page = { n: number; at: number };
const key = ["thread", 7] as const;

function setup() {
  const qc = new QueryClient();
  const pending: { n: number; resolve: () => void }[] = [];
  let reads = 0;
  const observer = new InfiniteQueryObserver<Page, Error, InfiniteData<Page>, typeof key, number>(qc, {
    queryKey: key,
    initialPageParam: 1,
    getNextPageParam: (last) => (last.n < 3 ? last.n + 1 : undefined),
    queryFn: ({ pageParam }) =>
      new Promise<Page>((resolve) => {
        const at = ++reads;
        pending.push({ n: pageParam, resolve: () => resolve({ n: pageParam, at }) });
      }),
  });
  const unsubscribe = observer.subscribe(() => {});
  /** Answers the oldest read; the caller waits for what that answer should lead to. */
  const answer = () => {
    const next = pending.shift()!;
    next.resolve();
    return next.n;
  };
  const pages = () => qc.getQueryData<InfiniteData<Page>>(key)?.pages.map((p) => p.n);
  return { qc, observer, pending, answer, pages, unsubscribe, reads: () => reads };
}

describe("refetchWhenIdle", () => {
  it("lets an older page on its way land, then reads every page again", async () => {
    const s = setup();
    s.answer(); // the first page
    await waitFor(s.pages, (p) => p?.length === 1);
    const older = s.observer.fetchNextPage();
    expect(s.pending.map((p) => p.n)).toEqual([2]);
    refetchWhenIdle(s.qc, ["thread"]);
    // Nothing cancelled, nothing started beside it.
    expect(s.pending.map((p) => p.n)).toEqual([2]);
    expect(s.answer()).toBe(2);
    await older;
    expect(s.pages()).toEqual([1, 2]);
    // Then the catch-up reads the two pages again, one after the other.
    await waitFor(
      () => s.pending.map((p) => p.n),
      (n) => n.length === 1,
    );
    expect(s.pending.map((p) => p.n)).toEqual([1]);
    s.answer();
    await waitFor(
      () => s.pending.length,
      (n) => n === 1,
    );
    expect(s.answer()).toBe(2);
    await waitFor(
      () => s.qc.isFetching(),
      (n) => n === 0,
    );
    expect(s.pages()).toEqual([1, 2]);
    expect(s.qc.getQueryData<InfiniteData<Page>>(key)!.pages.map((p) => p.at)).toEqual([3, 4]);
    s.unsubscribe();
  });

  it("reads an idle query again at once, and leaves inactive ones alone", async () => {
    const s = setup();
    s.answer();
    await waitFor(
      () => s.qc.isFetching(),
      (n) => n === 0,
    );
    refetchWhenIdle(s.qc, ["thread"]);
    expect(s.pending.map((p) => p.n)).toEqual([1]);
    s.answer();
    await waitFor(
      () => s.qc.isFetching(),
      (n) => n === 0,
    );
    s.unsubscribe();
    const before = s.reads();
    refetchWhenIdle(s.qc, ["thread"]);
    expect(s.reads()).toBe(before);
  });

  it("reads a query again after its first read, which left before the change; invalidateQueries alone does not", async () => {
    for (const how of ["invalidateQueries", "refetchWhenIdle"] as const) {
      const s = setup();
      // The first read is on its way (it read the server before the change); the event comes now.
      expect(s.pending.map((p) => p.n)).toEqual([1]);
      if (how === "invalidateQueries") void s.qc.invalidateQueries({ queryKey: ["thread"] });
      else refetchWhenIdle(s.qc, ["thread"]);
      s.answer();
      await waitFor(s.pages, (p) => p?.length === 1);
      if (how === "invalidateQueries") {
        // TanStack Query v5 joined the first read: nothing more is read, the change is never seen.
        await waitFor(
          () => s.qc.isFetching(),
          (n) => n === 0,
        );
        expect(s.pending).toEqual([]);
        expect(s.reads()).toBe(1);
      } else {
        await waitFor(
          () => s.pending.length,
          (n) => n === 1,
        );
        s.answer();
        await waitFor(
          () => s.qc.isFetching(),
          (n) => n === 0,
        );
        expect(s.qc.getQueryData<InfiniteData<Page>>(key)!.pages.map((p) => p.at)).toEqual([2]);
      }
      s.unsubscribe();
    }
  });
});
