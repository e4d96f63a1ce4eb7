"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  apiTokenSchema,
  createdTokenResponse,
  CreateTokenInput,
  listTokensResponse,
  rolledTokenResponse,
} from "@/lib/api-tokens/schemas";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";

export type ApiToken = z.infer<typeof apiTokenSchema>;
type TokenList = z.infer<typeof listTokensResponse>;
type CreatedToken = z.infer<typeof createdTokenResponse>;
type RolledToken = z.infer<typeof rolledTokenResponse>;

/** The team's API tokens, newest first (never their secrets). */
export function useTokens() {
  return useQuery({
    queryKey: queryKeys.tokens,
    queryFn: () => apiFetch<TokenList>("/api/v1/tokens").then((r) => r.data),
  });
}

/** Create, revoke and roll; each refreshes the list. A created or rolled token's secret is in the mutation's data only. */
export function useTokenMutations() {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: queryKeys.tokens });
  return {
    create: useMutation({
      mutationFn: (input: CreateTokenInput) => apiFetch<CreatedToken>("/api/v1/tokens", { method: "POST", body: input }),
      onSuccess: done,
    }),
    revoke: useMutation({
      mutationFn: (id: number) => apiFetch(`/api/v1/tokens/${id}`, { method: "DELETE" }),
      onSuccess: done,
    }),
    roll: useMutation({
      mutationFn: ({ id, overlapHours }: { id: number; overlapHours: number }) =>
        apiFetch<RolledToken>(`/api/v1/tokens/${id}/roll`, { method: "POST", body: { overlap_hours: overlapHours } }),
      onSuccess: done,
    }),
  };
}
