"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { botWithSecretResponse, CreateBotInput, UpdateBotInput } from "@/lib/bots/schemas";
import type { campaignWithSecretResponse, CreateCampaignInput, UpdateCampaignInput } from "@/lib/campaigns/schemas";
import type { RoutingRules, RoutingTestInput, routingTestResponse } from "@/lib/routing/schemas";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";

type BotAnswer = z.infer<typeof botWithSecretResponse>;
type CampaignAnswer = z.infer<typeof campaignWithSecretResponse>;
export type RoutingTestAnswer = z.infer<typeof routingTestResponse>["data"];

/** The routing rules in their order, with the team's bots and campaigns as settings (never their secrets). */
export function useRoutingRules() {
  return useQuery({
    queryKey: queryKeys.routing,
    queryFn: () => apiFetch<{ data: RoutingRules }>("/api/v1/routing").then((r) => r.data),
  });
}

/**
 * Create, change, rotate and delete bots and campaigns; each refreshes the rules and the send
 * catalogues. A new webhook secret is in the mutation's data only.
 */
export function useRoutingMutations() {
  const qc = useQueryClient();
  const done = () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: queryKeys.routing }),
      qc.invalidateQueries({ queryKey: queryKeys.bots }),
      qc.invalidateQueries({ queryKey: queryKeys.campaigns }),
    ]);
  return {
    createBot: useMutation({
      mutationFn: (input: CreateBotInput) => apiFetch<BotAnswer>("/api/v1/bots", { method: "POST", body: input }),
      onSuccess: done,
    }),
    updateBot: useMutation({
      mutationFn: ({ id, ...input }: UpdateBotInput & { id: number }) =>
        apiFetch<BotAnswer>(`/api/v1/bots/${id}`, { method: "PATCH", body: input }),
      onSuccess: done,
    }),
    createCampaign: useMutation({
      mutationFn: (input: CreateCampaignInput) => apiFetch<CampaignAnswer>("/api/v1/campaigns", { method: "POST", body: input }),
      onSuccess: done,
    }),
    updateCampaign: useMutation({
      mutationFn: ({ id, ...input }: UpdateCampaignInput & { id: number }) =>
        apiFetch<CampaignAnswer>(`/api/v1/campaigns/${id}`, { method: "PATCH", body: input }),
      onSuccess: done,
    }),
    rotate: useMutation({
      mutationFn: ({ kind, id }: { kind: "bot" | "campaign"; id: number }) =>
        apiFetch<BotAnswer | CampaignAnswer>(`/api/v1/${kind === "bot" ? "bots" : "campaigns"}/${id}/rotate-secret`, { method: "POST" }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: ({ kind, id }: { kind: "bot" | "campaign"; id: number }) =>
        apiFetch(`/api/v1/${kind === "bot" ? "bots" : "campaigns"}/${id}`, { method: "DELETE" }),
      onSuccess: done,
    }),
  };
}

/** "Which would take this reply?": nothing is stored, so it is a mutation only to run on demand. */
export function useRoutingTest() {
  return useMutation({
    mutationFn: (input: RoutingTestInput) =>
      apiFetch<{ data: RoutingTestAnswer }>("/api/v1/routing/test", { method: "POST", body: input }).then((r) => r.data),
  });
}
