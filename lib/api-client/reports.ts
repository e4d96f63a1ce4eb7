"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { reportAgentsResponse, reportSummaryResponse } from "@/lib/reports/schemas";
import { apiFetch, qs } from "./fetch";
import { queryKeys } from "./query-keys";

export type ReportSummary = z.infer<typeof reportSummaryResponse>["data"];
export type ReportAgents = z.infer<typeof reportAgentsResponse>["data"];
/** What the reports page asks for: UTC days and optional filters ("" = all). */
export type ReportParams = { from: string; to: string; wa_number: string; label_id: string; agent_id: string };

const query = (p: ReportParams) => qs({ from: p.from, to: p.to, wa_number: p.wa_number, label_id: p.label_id, agent_id: p.agent_id });

/** Reports are not streamed: a filter change asks again, keeping the previous figures on screen meanwhile. */
export function useReportSummary(p: ReportParams) {
  return useQuery({
    queryKey: queryKeys.reports.summary(p),
    queryFn: () => apiFetch<{ data: ReportSummary }>(`/api/v1/reports/summary${query(p)}`).then((r) => r.data),
    placeholderData: keepPreviousData,
  });
}

export function useReportAgents(p: ReportParams) {
  return useQuery({
    queryKey: queryKeys.reports.agents(p),
    queryFn: () => apiFetch<{ data: ReportAgents }>(`/api/v1/reports/agents${query(p)}`).then((r) => r.data),
    placeholderData: keepPreviousData,
  });
}
