import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * What a live event (or the stream's catch-up) says is out of date: the queries under `queryKey`
 * are marked stale, and the active ones are read again, each once it is not fetching. Every
 * event-driven invalidation goes through here, never through `invalidateQueries` alone, which
 * gets a fetch in progress wrong both ways:
 *
 * - During a query's first fetch (no data yet) it does not start another: it joins the fetch in
 *   progress, whose answer then clears the invalidation (TanStack Query v5, on its tracker as
 *   "invalidateQueries not invalidating outgoing first request"). A conversation list whose first
 *   read left before a new customer's message was stored never showed that conversation, though
 *   its `message.created` event came.
 * - With data, it cancels the fetch in progress: an infinite query's older page on its way (the
 *   agent scrolling up a thread) was dropped for a refetch of the pages before it, which landed
 *   later and made the thread's anchor jump.
 *
 * Here the fetch in progress lands, then the query is read again.
 */
export function refetchWhenIdle(qc: QueryClient, queryKey: QueryKey, { exact = false }: { exact?: boolean } = {}) {
  // Not on screen: only marked stale, read when it is shown again.
  void qc.invalidateQueries({ queryKey, exact, refetchType: "none" });
  const cache = qc.getQueryCache();
  for (const query of cache.findAll({ queryKey, exact, type: "active" })) {
    const refetch = () => void qc.invalidateQueries({ queryKey: query.queryKey, exact: true }, { cancelRefetch: false });
    if (query.state.fetchStatus === "idle") {
      refetch();
      continue;
    }
    const unsubscribe = cache.subscribe((event) => {
      if (event.query !== query) return;
      if (event.type === "removed") return unsubscribe();
      if (query.state.fetchStatus !== "idle") return;
      unsubscribe();
      refetch();
    });
  }
}
