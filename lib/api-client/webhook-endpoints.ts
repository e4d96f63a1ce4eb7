"use client";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  CreateEndpointInput,
  endpointWithSecretResponse,
  listEndpointDeliveriesResponse,
  listEndpointsResponse,
  resendFailedResponse,
  UpdateEndpointInput,
  webhookEndpointSchema,
} from "@/lib/webhook-endpoints/schemas";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";

export type WebhookEndpoint = z.infer<typeof webhookEndpointSchema>;
export type EndpointDeliveries = z.infer<typeof listEndpointDeliveriesResponse>;
export type WebhookDelivery = EndpointDeliveries["data"][number];
type EndpointList = z.infer<typeof listEndpointsResponse>;
type WithSecret = z.infer<typeof endpointWithSecretResponse>;

/** The team's webhook endpoints, newest first (never their secrets). */
export function useWebhookEndpoints() {
  return useQuery({
    queryKey: queryKeys.webhookEndpoints,
    queryFn: () => apiFetch<EndpointList>("/api/v1/webhook_endpoints").then((r) => r.data),
  });
}

/** One endpoint's deliveries, newest first, a page at a time; refreshed while any is pending. */
export function useEndpointDeliveries(endpointId: number, page: number) {
  return useQuery({
    queryKey: [...queryKeys.webhookDeliveries(endpointId), page],
    queryFn: () => apiFetch<EndpointDeliveries>(`/api/v1/webhook_endpoints/${endpointId}/deliveries?page=${page}&per_page=20`),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.data.some((d) => d.status === "pending") ? 2_000 : false),
  });
}

/** Create, change, delete, roll, resend; each refreshes the list (and the logs). A new secret is in the mutation's data only. */
export function useEndpointMutations() {
  const qc = useQueryClient();
  const done = () => qc.invalidateQueries({ queryKey: queryKeys.webhookEndpoints });
  return {
    create: useMutation({
      mutationFn: (input: CreateEndpointInput) => apiFetch<WithSecret>("/api/v1/webhook_endpoints", { method: "POST", body: input }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({ id, changes }: { id: number; changes: Partial<UpdateEndpointInput> }) =>
        apiFetch(`/api/v1/webhook_endpoints/${id}`, { method: "PATCH", body: changes }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: number) => apiFetch(`/api/v1/webhook_endpoints/${id}`, { method: "DELETE" }),
      onSuccess: done,
    }),
    roll: useMutation({
      mutationFn: ({ id, overlapHours }: { id: number; overlapHours: number }) =>
        apiFetch<WithSecret>(`/api/v1/webhook_endpoints/${id}/roll_secret`, { method: "POST", body: { overlap_hours: overlapHours } }),
      onSuccess: done,
    }),
    resend: useMutation({
      mutationFn: (deliveryId: number) => apiFetch(`/api/v1/webhook_deliveries/${deliveryId}/resend`, { method: "POST" }),
      onSuccess: done,
    }),
    resendFailed: useMutation({
      mutationFn: ({ id, since }: { id: number; since: string }) =>
        apiFetch<z.infer<typeof resendFailedResponse>>(`/api/v1/webhook_endpoints/${id}/resend_failed`, {
          method: "POST",
          body: { since },
        }),
      onSuccess: done,
    }),
  };
}
