"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";
import type { AgentResponse, LoginInput } from "./types";

/** The signed-in agent: who is there, sign-in and sign-out. Query keys come from query-keys.ts. */

/**
 * The signed-in agent. `signedOutOk`: a page open to visitors (/docs) asks who is there without
 * being sent to the sign-in page when nobody is (providers.tsx reads the query's meta).
 */
export function useMe({ signedOutOk = false }: { signedOutOk?: boolean } = {}) {
  return useQuery({
    queryKey: queryKeys.me,
    queryFn: () => apiFetch<AgentResponse>("/api/v1/auth/me").then((r) => r.data),
    retry: false,
    meta: signedOutOk ? { signedOutOk: true } : undefined,
  });
}

export function useLogin() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: LoginInput) => apiFetch<AgentResponse>("/api/v1/auth/login", { method: "POST", body: input }).then((r) => r.data),
    onSuccess: (agent) => {
      qc.clear();
      qc.setQueryData(queryKeys.me, agent);
    },
  });
}

export function useLogout() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch("/api/v1/auth/logout", { method: "POST" }),
    onSettled: () => qc.clear(),
  });
}
