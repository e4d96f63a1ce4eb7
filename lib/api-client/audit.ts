"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { z } from "zod";
import type { auditEventSchema, auditListResponse } from "@/lib/audit/schemas";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";

export type AuditEvent = z.infer<typeof auditEventSchema>;
type AuditList = z.infer<typeof auditListResponse>;

export type AuditFilters = { action: string; actor: string; from: string; to: string; page: number };

/** The query string of the audit list (and of its CSV export), empty filters left out. */
export function auditSearch(f: Omit<AuditFilters, "page"> & { page?: number; format?: "csv" }): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(f)) if (v !== "" && v !== undefined) q.set(k, String(v));
  return q.toString();
}

/** One page of the team's audit trail, newest first; the previous page stays shown while the next loads. */
export function useAudit(filters: AuditFilters) {
  return useQuery({
    queryKey: queryKeys.audit(filters),
    queryFn: () => apiFetch<AuditList>(`/api/v1/audit?${auditSearch({ ...filters, page: filters.page })}`),
    placeholderData: keepPreviousData,
  });
}
