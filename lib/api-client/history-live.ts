"use client";
import { useCallback, useEffect, useMemo, useRef } from "react";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch, qs } from "./fetch";
import { fetchHistoryPage, keys, type HistoryParams } from "./hooks";
import { mergeHead, patchStatus, type HistoryData } from "./history-cache";
import { useEventStream, type StreamState } from "./inbox";
import type { ContactList, Message } from "./types";

/** A burst of messages (a customer typing several lines, a bulk send) costs one request. */
const HEAD_DEBOUNCE_MS = 150;

/**
 * The contact the viewer shows, as the history endpoint finds it (lib/messages/history-repo.ts:
 * the customer number first, else the customer_id): `message.created` names a contact id, the
 * viewer's URL a number or customer_id. null while the customer has no contact yet.
 */
async function contactIdOf(source: string): Promise<number | null> {
  const r = await apiFetch<ContactList>(`/api/v1/contacts${qs({ search: source, page: 1, per_page: 20 })}`);
  const byNumber = /^\d+$/.test(source) ? r.data.find((c) => c.customer_number === source) : undefined;
  return (byNumber ?? r.data.find((c) => c.customer_id === source))?.id ?? null;
}

type MessageCreated = { wa_number: string; contact_id: number };
type MessageStatus = { id: number; status: Message["status"]; error: Message["error"] };

/**
 * Keeps the viewer's history of `params` current from the tab's one event stream (the hook the
 * inbox uses; each page mounts its own, and the viewer mounts this only while its range holds
 * today, so a past range opens no stream and asks nothing).
 *
 * Why patch rather than invalidate: `message.status` carries everything a tick needs, so it is
 * written into the cached pages with no request. `message.created` carries no payload, so the
 * newest page is fetched again, debounced, and merged into the first page: one request however
 * many older pages the agent scrolled in (invalidating the query would read every one of them
 * again). Private notes (`note.created`) are not messages of the 4.5 history and are ignored here.
 */
export function useLiveHistory(params: HistoryParams): StreamState {
  // params must keep its identity between renders (the caller memoizes it): the catch-up below
  // runs whenever the key changes.
  const qc = useQueryClient();
  const key = useMemo(() => keys.history(params), [params]);
  const contact = useQuery({
    queryKey: keys.historyContact(params.customer_source),
    queryFn: () => contactIdOf(params.customer_source),
    staleTime: Infinity,
  });
  const contactId = contact.data;

  const head = useMemo(
    () =>
      coalesced(async () => {
        try {
          const page = await fetchHistoryPage(params, 1);
          await idle(() => qc.isFetching({ queryKey: key, exact: true }) > 0);
          qc.setQueryData<HistoryData>(key, (old) => mergeHead(old, page));
        } catch {
          qc.invalidateQueries({ queryKey: key, exact: true });
        }
      }, HEAD_DEBOUNCE_MS),
    [params, key, qc],
  );
  useEffect(() => {
    head.resume();
    return head.stop;
  }, [head]);

  // Statuses are applied in the order they arrive, each once no fetch of this history is out or
  // due: a page being fetched (an older page, or the head) is written back whole when it lands and
  // would drop a tick applied meanwhile, and a message only that fetch brings cannot be ticked yet.
  const statuses = useRef(Promise.resolve());

  const onEvent = useCallback(
    (type: string, data: unknown) => {
      if (type === "message.created") {
        const ev = data as MessageCreated;
        if (ev.wa_number !== params.wa_number) return;
        if (typeof contactId === "number" && ev.contact_id !== contactId) return;
        // No contact yet (a first message creates it): find it again, and read the page meanwhile.
        if (contactId === null) qc.invalidateQueries({ queryKey: keys.historyContact(params.customer_source), exact: true });
        head.schedule();
      } else if (type === "message.status") {
        const ev = data as MessageStatus;
        statuses.current = statuses.current
          .then(() => idle(() => head.pending() || qc.isFetching({ queryKey: key, exact: true }) > 0))
          .then(() => void qc.setQueryData<HistoryData>(key, (old) => patchStatus(old, ev)));
      }
    },
    [params, contactId, key, qc, head],
  );
  const state = useEventStream(onEvent);

  // Each time the stream (re)opens, the loaded pages are read again (as the broadcast page does):
  // what happened before it listened, or while it was down beyond what the server replays, is
  // caught up, ticks of older pages included.
  useEffect(() => {
    if (state === "open") qc.invalidateQueries({ queryKey: key, exact: true });
  }, [state, key, qc]);
  return state;
}

/**
 * Runs `run` `delayMs` after the first of a burst of calls, one run at a time: a call while it runs
 * (a message that arrived after the request read the page) schedules one more run after it.
 */
function coalesced(run: () => Promise<void>, delayMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let busy = false;
  let again = false;
  let stopped = false;
  const schedule = () => {
    if (stopped) return;
    if (busy) again = true;
    if (busy || timer) return;
    timer = setTimeout(async () => {
      timer = undefined;
      busy = true;
      await run();
      busy = false;
      if (again) {
        again = false;
        schedule();
      }
    }, delayMs);
  };
  return {
    schedule,
    /** A run is due or under way. */
    pending: () => busy || timer !== undefined,
    resume: () => void (stopped = false),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
      timer = undefined;
    },
  };
}

/** Resolves once `busy()` is false (checked every 50 ms, for 15 s at most). */
async function idle(busy: () => boolean) {
  for (let i = 0; i < 300 && busy(); i++) await new Promise((r) => setTimeout(r, 50));
}
