import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "./query-keys";
import { throttle } from "./broadcasts-live";
import { refetchWhenIdle } from "./refetch-when-idle";

/**
 * What Meta's template and number events change in the caches; called by the frame's one handler
 * (live-events.ts). A sync with Meta can announce hundreds of `template.updated` in a second, so
 * the lists (the send form's, the /templates page's), the histories and the syncs' state are read
 * again at most once a second, after the burst's last event too.
 */
export function templatesLiveEvents(qc: QueryClient) {
  const refreshTemplates = throttle(() => {
    refetchWhenIdle(qc, queryKeys.allTemplates);
    refetchWhenIdle(qc, queryKeys.templateChangesAll);
    refetchWhenIdle(qc, queryKeys.templateSyncs);
  }, 1000);
  const refreshNumbers = throttle(() => refetchWhenIdle(qc, queryKeys.numbers), 1000);
  return {
    // Every number's list: a template may be team-wide. A paused one leaves the send form's list.
    templateUpdated: refreshTemplates,
    numberHealth: refreshNumbers,
    /** A gap in the stream: whatever Meta changed meanwhile is read again. */
    reset() {
      refreshTemplates();
      refreshNumbers();
    },
  };
}
