"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { setupBody, setupResponse, setupStatusResponse } from "@/lib/setup/schemas";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";

/** The first-run set-up (/setup, docs/features/setup.md). Query keys come from query-keys.ts. */
export type SetupInput = z.input<typeof setupBody>;
type SetupStatus = z.infer<typeof setupStatusResponse>;
type SetupResult = z.infer<typeof setupResponse>;

/** Whether no team exists yet (public: asked by the sign-in page before anyone is signed in). */
export function useSetupNeeded() {
  return useQuery({
    queryKey: queryKeys.setup,
    queryFn: () => apiFetch<SetupStatus>("/api/v1/setup").then((r) => r.data.needed),
    retry: false,
    meta: { signedOutOk: true },
  });
}

export function useRunSetup() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: SetupInput) => apiFetch<SetupResult>("/api/v1/setup", { method: "POST", body: input }).then((r) => r.data),
    // The database had no team: nothing cached belongs to anyone. The set-up query is left as it
    // is: the page tells a set-up it just made from one made before it came (which sends it to sign in).
    onSuccess: (data) => qc.setQueryData(queryKeys.me, data.agent),
  });
}
