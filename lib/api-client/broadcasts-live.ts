import type { QueryClient } from "@tanstack/react-query";
import { queryKeys } from "./query-keys";
import type { Broadcast, BroadcastList, BroadcastUpdatedEvent } from "./types";
import { refetchWhenIdle } from "./refetch-when-idle";

/**
 * What the live events change in the broadcast pages' caches; called by the frame's one handler
 * (live-events.ts). `broadcast.updated` patches the cached status and counts at once; then (and on
 * each `message.status` or `message.created`, which do not say their broadcast) a broadcast whose
 * page is open is read again, at most once a second, its recipients page and timeline at most
 * every 5 s (they cost more and move less to the eye).
 */
export function broadcastsLiveEvents(qc: QueryClient) {
  const throttles = new Map<string, () => void>();
  const throttled = (name: string, ms: number, fn: () => void) => {
    let run = throttles.get(name);
    if (!run) throttles.set(name, (run = throttle(fn, ms)));
    run();
  };
  const refetch = (id: number) => {
    throttled(`one:${id}`, 1000, () => refetchWhenIdle(qc, queryKeys.broadcasts.one(id)));
    throttled(`details:${id}`, 5000, () => {
      refetchWhenIdle(qc, queryKeys.broadcasts.recipientsAll(id));
      refetchWhenIdle(qc, queryKeys.broadcasts.timelineAll(id));
    });
  };
  /** The broadcasts whose page is open (an active single-broadcast query). */
  const open = () =>
    qc
      .getQueryCache()
      .findAll({ queryKey: queryKeys.broadcasts.oneAll, type: "active" })
      .map((q) => ({ id: q.queryKey[2] as number, broadcast: q.state.data as Broadcast | undefined }));

  return {
    /** Every `broadcast.updated` carries the counts as they stand (the server announces none
     * before the audience is enqueued: lib/broadcasts/service.ts). */
    broadcastUpdated(ev: BroadcastUpdatedEvent) {
      const apply = (b: Broadcast) => (b.id !== ev.id ? b : { ...b, status: ev.status, counts: ev.counts });
      qc.setQueryData<Broadcast>(queryKeys.broadcasts.one(ev.id), (old) => (old ? apply(old) : old));
      qc.setQueriesData<BroadcastList>({ queryKey: queryKeys.broadcasts.listsAll }, (old) =>
        old ? { ...old, data: old.data.map(apply) } : old,
      );
      if (open().some((o) => o.id === ev.id)) refetch(ev.id);
    },

    /** A message's event: only a broadcast still moving listens. A finished one's receipts still
     * move (delivered → read) and replies still come for a while after DONE. */
    messageEvent() {
      for (const { id, broadcast } of open()) {
        if (!broadcast || broadcast.status === "CANCELLED" || broadcast.status === "SCHEDULED") continue;
        refetch(id);
      }
    },

    // Each time the stream (re)opens, what changed before it was listening is read once: events
    // sent between the page's first fetch and the stream's opening are never replayed to it.
    streamOpened() {
      for (const { id } of open()) {
        refetchWhenIdle(qc, queryKeys.broadcasts.one(id));
        refetchWhenIdle(qc, queryKeys.broadcasts.recipientsAll(id));
        refetchWhenIdle(qc, queryKeys.broadcasts.timelineAll(id));
      }
    },
  };
}

/** Runs `fn` at most once per `ms`, the last call of a burst included (trailing edge). */
export function throttle(fn: () => void, ms: number) {
  let last = 0;
  let timer: ReturnType<typeof setTimeout> | undefined;
  return () => {
    if (timer) return;
    const wait = Math.max(0, last + ms - Date.now());
    timer = setTimeout(() => {
      timer = undefined;
      last = Date.now();
      fn();
    }, wait);
  };
}
