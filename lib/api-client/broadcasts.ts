"use client";
import { useEffect, useState } from "react";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch, qs } from "./fetch";
import { queryKeys } from "./query-keys";
import type {
  AudienceRule,
  AudienceSizeResponse,
  BroadcastList,
  BroadcastResponse,
  CreateBroadcastInput,
  MessagingLimitPreview,
  MessagingLimitPreviewResponse,
  RecipientList,
  RecipientStatus,
  TimelineResponse,
} from "./types";

/**
 * The broadcast pages' data: the list, one broadcast, its recipients and timeline, the lifecycle
 * actions, the new-broadcast send, and the audience's live size. The pages stay current from the
 * dashboard frame's one event stream (broadcasts-live.ts): `broadcast.updated` carries the counts.
 */
export type Bucket = "minute" | "hour";

export function useBroadcasts(page: number, perPage = 20) {
  return useQuery({
    queryKey: queryKeys.broadcasts.list(page, perPage),
    queryFn: () => apiFetch<BroadcastList>(`/api/v1/broadcasts${qs({ page, per_page: perPage })}`),
    placeholderData: keepPreviousData,
  });
}

export function useBroadcast(id: number) {
  return useQuery({
    queryKey: queryKeys.broadcasts.one(id),
    queryFn: () => apiFetch<BroadcastResponse>(`/api/v1/broadcasts/${id}`).then((r) => r.data),
    staleTime: Infinity,
    // Opening the page always asks: a cached copy (the create's answer, "0 de 21 procesados")
    // shows meanwhile but never stands for the broadcast.
    refetchOnMount: "always",
  });
}

export function useRecipients(id: number, status: RecipientStatus | "", page: number, perPage = 25) {
  return useQuery({
    queryKey: queryKeys.broadcasts.recipients(id, status, page),
    queryFn: () => apiFetch<RecipientList>(`/api/v1/broadcasts/${id}/recipients${qs({ status, page, per_page: perPage })}`),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    refetchOnMount: "always",
  });
}

export function useTimeline(id: number, bucket: Bucket) {
  return useQuery({
    queryKey: queryKeys.broadcasts.timeline(id, bucket),
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

export type BroadcastAction = "pause" | "resume" | "cancel";

export function useBroadcastAction(id: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (action: BroadcastAction) =>
      apiFetch<BroadcastResponse>(`/api/v1/broadcasts/${id}/${action}`, { method: "POST" }).then((r) => r.data),
    onSuccess: (b) => {
      qc.setQueryData(queryKeys.broadcasts.one(id), b);
      qc.invalidateQueries({ queryKey: queryKeys.broadcasts.listsAll });
      qc.invalidateQueries({ queryKey: queryKeys.broadcasts.recipientsAll(id) });
    },
  });
}

export function useCreateBroadcast() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ body, idempotencyKey }: { body: CreateBroadcastInput; idempotencyKey: string }) =>
      apiFetch<BroadcastResponse>("/api/v1/broadcasts", { method: "POST", body, headers: { "Idempotency-Key": idempotencyKey } }),
    onSuccess: (r) => {
      qc.setQueryData(queryKeys.broadcasts.one(r.data.id), r.data);
      qc.invalidateQueries({ queryKey: queryKeys.broadcasts.listsAll });
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
    queryKey: queryKeys.audienceSize(settled),
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

/** The number's messaging limit and the waves a broadcast of `recipients` would take (the wizard's review). */
export function useMessagingLimitPreview(waNumber: string, recipients: number | undefined, scheduledAt: string | null) {
  return useQuery<MessagingLimitPreview>({
    queryKey: queryKeys.messagingLimit(waNumber, recipients ?? 0, scheduledAt),
    enabled: !!waNumber && recipients !== undefined,
    queryFn: ({ signal }) =>
      apiFetch<MessagingLimitPreviewResponse>(
        `/api/v1/broadcasts/messaging-limit${qs({ wa_number: waNumber, recipients, scheduled_at: scheduledAt })}`,
        { signal },
      ).then((r) => r.data),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
