"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { listAgentsResponse, teamAgentResponse, teamAgentSchema, UpdateAgentInput } from "@/lib/agents/schemas";
import type {
  AcceptInvitationInput,
  createInvitationResponse,
  CreateInvitationInput,
  invitationPreviewResponse,
  invitationSchema,
  listInvitationsResponse,
} from "@/lib/agents/invitation-schemas";
import type { AgentResponse } from "./types";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";

/** The team's agents and invitations (/settings/agents), and the public accept page's calls. */
export type TeamAgent = z.infer<typeof teamAgentSchema>;
export type Invitation = z.infer<typeof invitationSchema>;
export type CreatedInvitation = z.infer<typeof createInvitationResponse>["data"];
export type InvitationPreview = z.infer<typeof invitationPreviewResponse>["data"];

export function useTeamAgents() {
  return useQuery({
    queryKey: queryKeys.agents,
    queryFn: () => apiFetch<z.infer<typeof listAgentsResponse>>("/api/v1/agents").then((r) => r.data),
  });
}

export function useInvitations() {
  return useQuery({
    queryKey: queryKeys.invitations,
    queryFn: () => apiFetch<z.infer<typeof listInvitationsResponse>>("/api/v1/agents/invitations").then((r) => r.data),
  });
}

/** A role change, a deactivation or a reactivation; the list is read again either way (a refusal may mean it moved). */
export function useUpdateAgent() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, ...body }: UpdateAgentInput & { id: number }) =>
      apiFetch<z.infer<typeof teamAgentResponse>>(`/api/v1/agents/${id}`, { method: "PATCH", body }).then((r) => r.data),
    onSettled: () => qc.invalidateQueries({ queryKey: queryKeys.agents }),
  });
}

export function useInvitationMutations() {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: queryKeys.invitations });
  return {
    create: useMutation({
      mutationFn: (input: CreateInvitationInput) =>
        apiFetch<z.infer<typeof createInvitationResponse>>("/api/v1/agents/invitations", { method: "POST", body: input }).then(
          (r) => r.data,
        ),
      onSuccess: done,
    }),
    revoke: useMutation({
      mutationFn: (id: number) => apiFetch(`/api/v1/agents/invitations/${id}`, { method: "DELETE" }),
      onSettled: done,
    }),
  };
}

/** What an invitation link is for (public: the token is the credential); never retried, an answer of 4xx is final. */
export function useInvitationPreview(token: string) {
  return useQuery({
    queryKey: queryKeys.invitationPreview(token),
    queryFn: () =>
      apiFetch<z.infer<typeof invitationPreviewResponse>>("/api/v1/auth/invitations/lookup", { method: "POST", body: { token } }).then(
        (r) => r.data,
      ),
    retry: false,
    staleTime: Infinity,
    meta: { signedOutOk: true },
  });
}

export function useAcceptInvitation() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: AcceptInvitationInput) =>
      apiFetch<AgentResponse>("/api/v1/auth/invitations/accept", { method: "POST", body: input }).then((r) => r.data),
    onSuccess: (agent) => {
      // Signed in as someone new: nothing cached belongs to them, as after sign-in.
      qc.clear();
      qc.setQueryData(queryKeys.me, agent);
    },
  });
}
