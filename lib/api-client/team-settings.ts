"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { UpdateTeamSettingsInput } from "@/lib/teams/settings-schemas";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";
import type { TeamSettings } from "./types";

/** The team's settings (GET /api/v1/team/settings): the send form's default country. Query keys come from query-keys.ts. */
export function useTeamSettings() {
  return useQuery({
    queryKey: queryKeys.teamSettings,
    queryFn: () => apiFetch<{ data: TeamSettings }>("/api/v1/team/settings").then((r) => r.data),
    staleTime: 5 * 60_000,
  });
}

/** PATCH /api/v1/team/settings (owners and admins): the answer replaces what every screen reads. */
export function useUpdateTeamSettings() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateTeamSettingsInput) =>
      apiFetch<{ data: TeamSettings }>("/api/v1/team/settings", { method: "PATCH", body: input }).then((r) => r.data),
    onSuccess: (data) => qc.setQueryData(queryKeys.teamSettings, data),
  });
}
