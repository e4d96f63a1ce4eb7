"use client";
import { useInfiniteQuery, useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch, qs } from "./fetch";
import { queryKeys } from "./query-keys";
import type { HistoryPage, SandboxReplyInput, SandboxReplyResponse } from "./types";

export type { SandboxReplyInput };

/** The history viewer's pages and the sandbox's customer reply. Query keys come from query-keys.ts. */

export type HistoryParams = { wa_number: string; customer_source: string; from_date: string; to_date: string; per_page?: number };

/** One page of a history, newest first (order DESC), as the viewer asks for it. */
export function fetchHistoryPage(p: HistoryParams, page: number, signal?: AbortSignal) {
  return apiFetch<HistoryPage>(
    `/api/v1/messages/whatsapp/history${qs({ ...p, order: "DESC", with_pagination: 1, per_page: p.per_page ?? 50, page, include: "update_id,error,routed_to,provider_message_id" })}`,
    { signal },
  );
}

/**
 * Newest page first (order DESC); the viewer reverses pages to show them oldest to newest. Nothing
 * polls: a range that includes today follows the event stream (lib/api-client/history-live.ts),
 * and a past range does not change.
 */
export function useHistory(p: HistoryParams | null) {
  return useInfiniteQuery({
    queryKey: queryKeys.history.one(p ?? ({} as HistoryParams)),
    enabled: !!p,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => fetchHistoryPage(p!, pageParam, signal),
    getNextPageParam: (last) =>
      last.pagination && last.pagination.current_page < last.pagination.total_pages ? last.pagination.current_page + 1 : undefined,
  });
}

/** A customer's reply injected into a sandbox number (what a real customer's would do), then the history refreshed. */
export function useSandboxReply() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SandboxReplyInput) => apiFetch<SandboxReplyResponse>("/api/v1/sandbox/inbound", { method: "POST", body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.history.all }),
  });
}
