import type { QueryClient, QueryKey } from "@tanstack/react-query";

/**
 * Reads the active queries under `queryKey` again, each once it is not fetching, never cancelling
 * a fetch in progress. `invalidateQueries` alone cancels one: an infinite query's older page on its
 * way (the agent scrolling up a thread) was dropped for a refetch of the pages before it, which
 * landed later and made the thread's anchor jump (a thread's first scroll to its start, then back
 * down a page). The event stream's catch-up on (re)opening reads through here.
 */
export function refetchWhenIdle(qc: QueryClient, queryKey: QueryKey) {
  const cache = qc.getQueryCache();
  for (const query of cache.findAll({ queryKey, type: "active" })) {
    const refetch = () => void qc.invalidateQueries({ queryKey: query.queryKey, exact: true }, { cancelRefetch: false });
    if (query.state.fetchStatus === "idle") {
      refetch();
      continue;
    }
    const unsubscribe = cache.subscribe((event) => {
      if (event.query !== query || query.state.fetchStatus !== "idle") return;
      unsubscribe();
      refetch();
    });
  }
}
