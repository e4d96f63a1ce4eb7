"use client";
import { useQuery } from "@tanstack/react-query";
import { apiFetch, qs } from "./fetch";
import { queryKeys } from "./query-keys";
import type { BotList, CampaignList, TemplateList, WaNumberList } from "./types";

/** The team's numbers, their templates, and the bots and campaigns a send may route replies to. Query keys come from query-keys.ts. */

export function useWaNumbers() {
  return useQuery({
    queryKey: queryKeys.numbers,
    queryFn: () => apiFetch<WaNumberList>("/api/v1/wa_numbers?per_page=100").then((r) => r.data),
  });
}

/**
 * The numbers a send may go out from: the same list and cache, without the disabled ones (their
 * sends are refused; docs/features/numbers.md). The send form and the broadcast wizard offer these.
 */
export function useSendingNumbers() {
  return useQuery({
    queryKey: queryKeys.numbers,
    queryFn: () => apiFetch<WaNumberList>("/api/v1/wa_numbers?per_page=100").then((r) => r.data),
    select: (numbers) => numbers.filter((n) => !n.disabled),
  });
}

/** The templates the number may send now (`sendable=1`: a template Meta paused or rejected is not offered). */
export function useTemplates(waNumber: string) {
  return useQuery({
    queryKey: queryKeys.templates(waNumber),
    queryFn: () =>
      apiFetch<TemplateList>(`/api/v1/message_templates${qs({ wa_number: waNumber, per_page: 100, sendable: 1 })}`).then((r) => r.data),
    enabled: !!waNumber,
  });
}

export function useBots() {
  return useQuery({ queryKey: queryKeys.bots, queryFn: () => apiFetch<BotList>("/api/v1/bots?per_page=100").then((r) => r.data) });
}

export function useCampaigns() {
  return useQuery({
    queryKey: queryKeys.campaigns,
    queryFn: () => apiFetch<CampaignList>("/api/v1/campaigns?per_page=100").then((r) => r.data),
  });
}
