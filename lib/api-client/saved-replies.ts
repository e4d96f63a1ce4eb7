"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { createSavedReplyBody, listSavedRepliesResponse, savedReplyResponse, savedReplySchema } from "@/lib/saved-replies/schemas";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";

export type SavedReply = z.infer<typeof savedReplySchema>;
export type SavedReplyInput = z.input<typeof createSavedReplyBody>;
type SavedReplyList = z.infer<typeof listSavedRepliesResponse>;
type SavedReplyResponse = z.infer<typeof savedReplyResponse>;

/**
 * The team's saved replies, all of them (up to 100, the API's page): the composer's `/` list
 * filters them as the agent types without a request per key.
 */
export function useSavedReplies() {
  return useQuery({
    queryKey: queryKeys.savedReplies,
    queryFn: () => apiFetch<SavedReplyList>("/api/v1/saved-replies?per_page=100").then((r) => r.data),
    staleTime: 60_000,
  });
}

export function useSavedReplyMutations() {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: queryKeys.savedReplies });
  return {
    create: useMutation({
      mutationFn: (input: SavedReplyInput) => apiFetch<SavedReplyResponse>("/api/v1/saved-replies", { method: "POST", body: input }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({ id, ...input }: SavedReplyInput & { id: number }) =>
        apiFetch<SavedReplyResponse>(`/api/v1/saved-replies/${id}`, { method: "PATCH", body: input }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: number) => apiFetch(`/api/v1/saved-replies/${id}`, { method: "DELETE" }),
      onSuccess: done,
    }),
  };
}

export { fillSavedReply } from "@/lib/saved-replies/fill";
