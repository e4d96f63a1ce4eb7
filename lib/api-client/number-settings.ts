"use client";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type {
  createNumberBody,
  listNumberSettingsResponse,
  numberCheckResponse,
  numberSettingsResponse,
  numberSettingsSchema,
  updateNumberBody,
} from "@/lib/numbers/settings-schemas";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";

/** The numbers as settings (/settings/numbers, docs/features/numbers.md). Query keys come from query-keys.ts. */
export type NumberSettings = z.infer<typeof numberSettingsSchema>;
export type NumberCheck = z.infer<typeof numberCheckResponse>;
export type CreateNumberInput = z.input<typeof createNumberBody>;
export type UpdateNumberInput = z.input<typeof updateNumberBody>;
type NumberList = z.infer<typeof listNumberSettingsResponse>;
type NumberResponse = z.infer<typeof numberSettingsResponse>;

export function useNumberSettings() {
  return useQuery({
    queryKey: queryKeys.numberSettings,
    queryFn: () => apiFetch<NumberList>("/api/v1/numbers").then((r) => r.data),
  });
}

/** Every change also refreshes the send catalogue (a renamed or new number shows in the send form). */
export function useNumberMutations() {
  const qc = useQueryClient();
  const done = () => {
    void qc.invalidateQueries({ queryKey: queryKeys.numberSettings });
    void qc.invalidateQueries({ queryKey: queryKeys.numbers });
  };
  return {
    create: useMutation({
      mutationFn: (input: CreateNumberInput) => apiFetch<NumberResponse>("/api/v1/numbers", { method: "POST", body: input }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({ id, ...input }: UpdateNumberInput & { id: number }) =>
        apiFetch<NumberResponse>(`/api/v1/numbers/${id}`, { method: "PATCH", body: input }),
      onSuccess: done,
    }),
    sandbox: useMutation({
      mutationFn: () => apiFetch<NumberResponse>("/api/v1/numbers/sandbox", { method: "POST" }),
      onSuccess: done,
    }),
  };
}

/** One number's check with Meta; its answer (or Meta's error) stays shown under the number. */
export function useVerifyNumber() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => apiFetch<NumberCheck>(`/api/v1/numbers/${id}/verify`, { method: "POST" }),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: queryKeys.numberSettings });
      void qc.invalidateQueries({ queryKey: queryKeys.numbers });
    },
  });
}
