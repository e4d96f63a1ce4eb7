"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch, qs } from "./fetch";
import { queryKeys } from "./query-keys";
import type { LabelInput, LabelList, LabelListItem, LabelResponse, LabelUpdate } from "./types";

export type { LabelInput };

/** The team's labels: the whole list and its create, update and delete. Query keys come from query-keys.ts. */

/**
 * Every label of the team: the list caps per_page at 20, so the pages are walked. Labels are not
 * streamed as events, so each page that shows them asks again when it opens (the inbox loads them
 * first; a label made elsewhere meanwhile must still be offered by the contacts page's picker).
 */
export function useLabels() {
  return useQuery({
    queryKey: queryKeys.labels,
    refetchOnMount: "always",
    queryFn: async () => {
      const all: LabelListItem[] = [];
      for (let page = 1; page <= 50; page++) {
        const r = await apiFetch<LabelList>(`/api/v1/contacts/labels${qs({ page, per_page: 20 })}`);
        all.push(...r.data);
        if (page >= r.pagination.total_pages) break;
      }
      return all;
    },
  });
}

export function useLabelMutations() {
  const qc = useQueryClient();
  const done = () => {
    qc.invalidateQueries({ queryKey: queryKeys.labels });
    qc.invalidateQueries({ queryKey: queryKeys.contactsAll });
  };
  return {
    create: useMutation({
      mutationFn: (input: LabelInput) => apiFetch<LabelResponse>("/api/v1/contacts/labels", { method: "POST", body: input }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({ id, ...input }: LabelUpdate & { id: number }) =>
        apiFetch<LabelResponse>(`/api/v1/contacts/labels/${id}`, { method: "PATCH", body: input }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: number) => apiFetch(`/api/v1/contacts/labels/${id}`, { method: "DELETE" }),
      onSuccess: done,
    }),
  };
}
