"use client";
import { useCallback, useEffect, useRef, useState } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import { apiFetch, qs } from "./fetch";
import { useEventStream, type StreamState } from "./inbox";
import type {
  AudienceRule,
  AudienceSizeResponse,
  Broadcast,
  BroadcastList,
  BroadcastResponse,
  BroadcastUpdatedEvent,
  CreateBroadcastInput,
  RecipientList,
  RecipientStatus,
  TimelineResponse,
} from "./types";

/**
 * The broadcast pages' data: the list, one broadcast, its recipients and timeline, the lifecycle
 * actions, the new-broadcast send, and the audience's live size. One broadcast stays current from
 * the dashboard's one event stream (useEventStream): `broadcast.updated` carries its counts.
 */
export const broadcastKeys = {
  all: ["broadcasts"] as const,
  list: (page: number, perPage: number) => ["broadcasts", "list", page, perPage] as const,
  one: (id: number) => ["broadcasts", "one", id] as const,
  recipientsAll: (id: number) => ["broadcasts", "recipients", id] as const,
  recipients: (id: number, status: string, page: number) => ["broadcasts", "recipients", id, status, page] as const,
  timeline: (id: number, bucket: Bucket) => ["broadcasts", "timeline", id, bucket] as const,
  audienceSize: (rule: AudienceRule) => ["audience-size", rule] as const,
};

export type Bucket = "minute" | "hour";

export function useBroadcasts(page: number, perPage = 20) {
  return useQuery({
    queryKey: broadcastKeys.list(page, perPage),
    queryFn: () => apiFetch<BroadcastList>(`/api/v1/broadcasts${qs({ page, per_page: perPage })}`),
    placeholderData: keepPreviousData,
  });
}

export function useBroadcast(id: number) {
  return useQuery({
    queryKey: broadcastKeys.one(id),
    queryFn: () => apiFetch<BroadcastResponse>(`/api/v1/broadcasts/${id}`).then((r) => r.data),
    staleTime: Infinity,
    // Opening the page always asks: a cached copy (the create's answer, "0 de 21 procesados")
    // shows meanwhile but never stands for the broadcast (issue 21).
    refetchOnMount: "always",
  });
}

export function useRecipients(id: number, status: RecipientStatus | "", page: number, perPage = 25) {
  return useQuery({
    queryKey: broadcastKeys.recipients(id, status, page),
    queryFn: () => apiFetch<RecipientList>(`/api/v1/broadcasts/${id}/recipients${qs({ status, page, per_page: perPage })}`),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    refetchOnMount: "always",
  });
}

export function useTimeline(id: number, bucket: Bucket) {
  return useQuery({
    queryKey: broadcastKeys.timeline(id, bucket),
    queryFn: () => apiFetch<TimelineResponse>(`/api/v1/broadcasts/${id}/timeline${qs({ bucket })}`).then((r) => r.data),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    refetchOnMount: "always",
  });
}

/** The recipients CSV (streamed by the server); a plain link, so the browser downloads it with the session cookie. */
export function recipientsCsvUrl(id: number, status: RecipientStatus | "", lang: "es" | "en" = "es") {
  return `/api/v1/broadcasts/${id}/recipients${qs({ format: "csv", status, lang })}`;
}

/**
 * The event's status and counts, at once. Every `broadcast.updated` carries the counts as they
 * stand (the server announces none before the audience is enqueued: lib/broadcasts/service.ts).
 */
function patchBroadcast(qc: QueryClient, ev: BroadcastUpdatedEvent) {
  const apply = (b: Broadcast) => (b.id !== ev.id ? b : { ...b, status: ev.status, counts: ev.counts });
  qc.setQueryData<Broadcast>(broadcastKeys.one(ev.id), (old) => (old ? apply(old) : old));
  qc.setQueriesData<BroadcastList>({ queryKey: ["broadcasts", "list"] }, (old) => (old ? { ...old, data: old.data.map(apply) } : old));
}

/** Runs `fn` at most once per `ms`, the last call of a burst included (trailing edge). */
function useThrottle(fn: () => void, ms: number) {
  const last = useRef(0);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const fnRef = useRef(fn);
  useEffect(() => {
    fnRef.current = fn;
  }, [fn]);
  useEffect(() => () => clearTimeout(timer.current), []);
  return useCallback(() => {
    if (timer.current) return;
    const wait = Math.max(0, last.current + ms - Date.now());
    timer.current = setTimeout(() => {
      timer.current = undefined;
      last.current = Date.now();
      fnRef.current();
    }, wait);
  }, [ms]);
}

/**
 * Keeps the broadcast pages live from the dashboard's event stream. `broadcast.updated` patches
 * the cached counts at once; then (and on each `message.status`, which does not say its broadcast)
 * the open broadcast, its recipients page and its timeline are refetched, at most once a second.
 */
export function useBroadcastsLive(openId?: number): StreamState {
  const qc = useQueryClient();
  const refetchOne = useThrottle(() => {
    if (openId !== undefined) qc.invalidateQueries({ queryKey: broadcastKeys.one(openId) });
  }, 1000);
  // The recipients page and the timeline cost more and move less to the eye: every 5 s at most.
  const refetchDetails = useThrottle(() => {
    if (openId === undefined) return;
    qc.invalidateQueries({ queryKey: broadcastKeys.recipientsAll(openId) });
    qc.invalidateQueries({ queryKey: ["broadcasts", "timeline", openId] });
  }, 5000);
  const onEvent = useCallback(
    (type: string, data: unknown) => {
      if (type === "broadcast.updated") {
        const ev = data as BroadcastUpdatedEvent;
        patchBroadcast(qc, ev);
        if (ev.id !== openId) return;
      } else if (type === "message.status" || type === "message.created") {
        // Neither says its broadcast: only a broadcast still moving listens. A finished one's
        // receipts still move (delivered → read) and replies still come for a while after DONE.
        const b = openId === undefined ? undefined : qc.getQueryData<Broadcast>(broadcastKeys.one(openId));
        if (!b || b.status === "CANCELLED" || b.status === "SCHEDULED") return;
      } else return;
      refetchOne();
      refetchDetails();
    },
    [qc, openId, refetchOne, refetchDetails],
  );
  const state = useEventStream(onEvent);
  // Each time the stream (re)opens, what changed before it was listening is read once: events
  // sent between the page's first fetch and the stream's opening are never replayed to it.
  useEffect(() => {
    if (state !== "open" || openId === undefined) return;
    qc.invalidateQueries({ queryKey: broadcastKeys.one(openId) });
    qc.invalidateQueries({ queryKey: broadcastKeys.recipientsAll(openId) });
    qc.invalidateQueries({ queryKey: ["broadcasts", "timeline", openId] });
  }, [state, openId, qc]);
  return state;
}

export type BroadcastAction = "pause" | "resume" | "cancel";

export function useBroadcastAction(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (action: BroadcastAction) =>
      apiFetch<BroadcastResponse>(`/api/v1/broadcasts/${id}/${action}`, { method: "POST" }).then((r) => r.data),
    onSuccess: (b) => {
      qc.setQueryData(broadcastKeys.one(id), b);
      qc.invalidateQueries({ queryKey: ["broadcasts", "list"] });
      qc.invalidateQueries({ queryKey: broadcastKeys.recipientsAll(id) });
    },
  });
}

export function useCreateBroadcast() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: CreateBroadcastInput; idempotencyKey: string }) =>
      apiFetch<BroadcastResponse>("/api/v1/broadcasts", { method: "POST", body, headers: { "Idempotency-Key": idempotencyKey } }),
    onSuccess: (r) => {
      qc.setQueryData(broadcastKeys.one(r.data.id), r.data);
      qc.invalidateQueries({ queryKey: ["broadcasts", "list"] });
    },
  });
}

/** A value that settles `ms` after its last change (the audience size is asked once the picking pauses). */
export function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const t = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(t);
  }, [value, ms]);
  return settled;
}

export function audienceIsEmpty(rule: AudienceRule) {
  return rule.labels_any.length === 0 && rule.labels_all.length === 0;
}

/** The audience's size, asked 300 ms after the last change of its labels. */
export function useAudienceSize(rule: AudienceRule) {
  const settled = useDebounced(rule, 300);
  const query = useQuery<AudienceSizeResponse["data"]>({
    queryKey: broadcastKeys.audienceSize(settled),
    enabled: !audienceIsEmpty(settled),
    queryFn: ({ signal }) =>
      apiFetch<AudienceSizeResponse>(
        `/api/v1/audiences/size${qs({
          any: settled.labels_any.join(","),
          all: settled.labels_all.join(","),
          exclude: settled.labels_exclude.join(","),
        })}`,
        { signal },
      ).then((r) => r.data),
    placeholderData: keepPreviousData,
    staleTime: 5_000,
  });
  return { size: query, settling: settled !== rule };
}
