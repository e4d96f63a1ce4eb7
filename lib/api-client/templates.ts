"use client";
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { listTemplateChangesResponse, listTemplateSyncsResponse, SyncTemplatesResponse } from "@/lib/templates/sync-schemas";
import { apiFetch, qs } from "./fetch";
import { queryKeys } from "./query-keys";
import type { TemplateList } from "./types";
import type { TemplateDraft } from "@/lib/templates/draft-schema";
import type { TemplateListItem } from "@/lib/templates/schemas";

/** The /templates page's data: the templates by filters, one's history, and the syncs with Meta. Keys from query-keys.ts. */

export type TemplateFilters = { status: string; search: string; page: number };
type TemplateChanges = z.infer<typeof listTemplateChangesResponse>;
export type TemplateChange = TemplateChanges["data"][number];
export type TemplateSyncStates = z.infer<typeof listTemplateSyncsResponse>["data"];
export type AccountSyncResult = SyncTemplatesResponse["data"]["accounts"][number];

/** One page of 100 of the team's templates (every status unless filtered); the previous page stays shown while the next loads. */
export function useTemplateList(filters: TemplateFilters) {
  return useQuery({
    queryKey: queryKeys.templateList(filters),
    queryFn: () =>
      apiFetch<TemplateList>(
        `/api/v1/message_templates${qs({ status: filters.status, search: filters.search.trim(), page: filters.page, per_page: 100 })}`,
      ),
    placeholderData: keepPreviousData,
  });
}

/** A template's changes, newest first, 50 at a time ("Ver más antiguos" reads the next page). */
export function useTemplateChanges(id: string | null) {
  return useInfiniteQuery({
    queryKey: queryKeys.templateChanges(id ?? ""),
    queryFn: ({ pageParam }) =>
      apiFetch<TemplateChanges>(`/api/v1/message_templates/${encodeURIComponent(id!)}/changes${qs({ page: pageParam, per_page: 50 })}`),
    initialPageParam: 1,
    getNextPageParam: (last) => (last.pagination.current_page < last.pagination.total_pages ? last.pagination.current_page + 1 : undefined),
    enabled: !!id,
  });
}

/** Each business account's last sync (when, by whom, its answer). */
export function useTemplateSyncs() {
  return useQuery({
    queryKey: queryKeys.templateSyncs,
    queryFn: () => apiFetch<{ data: TemplateSyncStates }>("/api/v1/message_templates/sync").then((r) => r.data),
  });
}

/**
 * "Sincronizar ahora": every business account of the team, one after another. The templates'
 * changes arrive as template.updated events too; once it ends, what it touched is read again.
 */
export function useSyncTemplates() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<SyncTemplatesResponse>("/api/v1/message_templates/sync", { method: "POST" }).then((r) => r.data.accounts),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.allTemplates });
      void qc.invalidateQueries({ queryKey: queryKeys.templateChangesAll });
      void qc.invalidateQueries({ queryKey: queryKeys.templateSyncs });
    },
  });
}

/**
 * The template editor's submit (`POST /api/v1/message_templates`): Meta's refusal comes back as an
 * ApiRequestError with Meta's words. What it created is read again by every template list.
 */
export function useSubmitTemplate() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (draft: TemplateDraft) =>
      apiFetch<{ data: TemplateListItem }>("/api/v1/message_templates", { method: "POST", body: draft }).then((r) => r.data),
    onSuccess: () => void qc.invalidateQueries({ queryKey: queryKeys.allTemplates }),
  });
}
