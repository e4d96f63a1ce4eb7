"use client";
import { useQuery, type Query, type QueryClient } from "@tanstack/react-query";
import { apiFetch, qs } from "./fetch";
import { fetchHistoryPage, type HistoryParams } from "./history";
import { queryKeys } from "./query-keys";
import { refetchWhenIdle } from "./refetch-when-idle";
import { mergeHead, patchStatus, type HistoryData } from "./history-cache";
import { useLiveEvents, type StreamState } from "./live-stream";
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
type MessageStatus = { id: number; status: Message["status"]; error?: Message["error"] };

/**
 * Keeps the viewer's history of `params` live: the viewer mounts this only while its range holds
 * today, so a past range opens no stream and asks nothing. The stream is the dashboard frame's
 * one (live-stream.tsx) and the caches are patched by its one handler (historyLiveEvents below);
 * what the page adds is the contact its events are matched by.
 */
export function useLiveHistory(params: HistoryParams): StreamState {
  useQuery({
    queryKey: queryKeys.history.contact(params.customer_source),
    queryFn: () => contactIdOf(params.customer_source),
    staleTime: Infinity,
  });
  return useLiveEvents();
}

type KeyState = { head: ReturnType<typeof coalesced>; statuses: Promise<void> };

/**
 * What the live events change in the viewer's cached histories (every `history` query: the one on
 * screen, and those of ranges seen before in this tab).
 *
 * Why patch rather than invalidate: `message.status` carries everything a tick needs, so it is
 * written into the cached pages with no request. `message.created` carries no payload, so the
 * newest page of a history on screen is fetched again, debounced, and merged into the first page:
 * one request however many older pages the agent scrolled in (invalidating the query would read
 * every one of them again); one not on screen is only marked stale. Private notes
 * (`note.created`) are not messages of the 4.5 history and are not handled here.
 */
export function historyLiveEvents(qc: QueryClient) {
  const perKey = new Map<string, KeyState>();
  const cached = () => qc.getQueryCache().findAll({ queryKey: queryKeys.history.all });

  function stateOf(query: Query): KeyState {
    let st = perKey.get(query.queryHash);
    if (!st) {
      const key = query.queryKey;
      const params = key[1] as HistoryParams;
      const head = coalesced(async () => {
        // Left meanwhile: nothing on screen to keep current (stale already, read when shown again).
        if (!qc.getQueryCache().find({ queryKey: key, exact: true })?.isActive()) return;
        try {
          const page = await fetchHistoryPage(params, 1);
          await idle(() => qc.isFetching({ queryKey: key, exact: true }) > 0);
          qc.setQueryData<HistoryData>(key, (old) => mergeHead(old, page));
        } catch {
          refetchWhenIdle(qc, key, { exact: true });
        }
      }, HEAD_DEBOUNCE_MS);
      st = { head, statuses: Promise.resolve() };
      perKey.set(query.queryHash, st);
    }
    return st;
  }

  return {
    messageCreated(ev: MessageCreated) {
      for (const query of cached()) {
        const params = query.queryKey[1] as HistoryParams;
        if (ev.wa_number !== params.wa_number) continue;
        const contactId = qc.getQueryData<number | null>(queryKeys.history.contact(params.customer_source));
        if (typeof contactId === "number" && ev.contact_id !== contactId) continue;
        if (!query.isActive()) {
          qc.invalidateQueries({ queryKey: query.queryKey, exact: true, refetchType: "none" });
          continue;
        }
        // No contact yet (a first message creates it): find it again, and read the page meanwhile.
        if (contactId === null) refetchWhenIdle(qc, queryKeys.history.contact(params.customer_source), { exact: true });
        stateOf(query).head.schedule();
      }
    },

    // Statuses are applied in the order they arrive, each once no fetch of its history is out or
    // due: a page being fetched (an older page, or the head) is written back whole when it lands
    // and would drop a tick applied meanwhile, and a message only that fetch brings cannot be ticked yet.
    messageStatus(ev: MessageStatus) {
      for (const query of cached()) {
        const key = query.queryKey;
        const st = stateOf(query);
        st.statuses = st.statuses
          .then(() => idle(() => st.head.pending() || qc.isFetching({ queryKey: key, exact: true }) > 0))
          .then(() => void qc.setQueryData<HistoryData>(key, (old) => patchStatus(old, ev)));
      }
    },

    // Each time the stream (re)opens, the histories on screen are read again (as a broadcast's
    // page is): what happened before it listened, or while it was down beyond what the server
    // replays, is caught up, ticks of older pages included.
    streamOpened() {
      refetchWhenIdle(qc, queryKeys.history.all);
    },
  };
}

/**
 * Runs `run` `delayMs` after the first of a burst of calls, one run at a time: a call while it runs
 * (a message that arrived after the request read the page) schedules one more run after it.
 */
function coalesced(run: () => Promise<void>, delayMs: number) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let busy = false;
  let again = false;
  const schedule = () => {
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
  };
}

/** Resolves once `busy()` is false (checked every 50 ms, for 15 s at most). */
async function idle(busy: () => boolean) {
  for (let i = 0; i < 300 && busy(); i++) await new Promise((r) => setTimeout(r, 50));
}
