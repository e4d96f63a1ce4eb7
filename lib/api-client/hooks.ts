"use client";
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { apiFetch, qs } from "./fetch";
import { queryKeys } from "./query-keys";

export type { LabelInput, SandboxReplyInput };
import type {
  AgentResponse,
  BotList,
  CampaignList,
  ContactList,
  ConversationList,
  HistoryPage,
  LabelInput,
  LabelListItem,
  LabelList,
  LabelResponse,
  LabelUpdate,
  LoginInput,
  SandboxReplyInput,
  SandboxReplyResponse,
  SendTemplateResponse,
  TemplateList,
  UploadMediaResponse,
  WaNumberList,
} from "./types";

/**
 * TanStack Query hooks over /api/v1: one per endpoint the dashboard uses. Every query key, and every
 * prefix an invalidation matches, comes from `keys`: a key holds every parameter of its request.
 */
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

export function useWaNumbers() {
  return useQuery({
    queryKey: queryKeys.numbers,
    queryFn: () => apiFetch<WaNumberList>("/api/v1/wa_numbers?per_page=100").then((r) => r.data),
  });
}

export function useTemplates(waNumber: string) {
  return useQuery({
    queryKey: queryKeys.templates(waNumber),
    queryFn: () => apiFetch<TemplateList>(`/api/v1/message_templates${qs({ wa_number: waNumber, per_page: 100 })}`).then((r) => r.data),
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

/**
 * Every label of the team: the list caps per_page at 20, so the pages are walked. Labels are not
 * streamed as events, so each page that shows them asks again when it opens (the inbox loads them
 * first; a label made elsewhere meanwhile must still be offered by the contacts page's picker).
 */
export function useLabels() {
  return useQuery({
    queryKey: queryKeys.labels,
    refetchOnMount: "always",
    queryFn: async () => {
      const all: LabelListItem[] = [];
      for (let page = 1; page <= 50; page++) {
        const r = await apiFetch<LabelList>(`/api/v1/contacts/labels${qs({ page, per_page: 20 })}`);
        all.push(...r.data);
        if (page >= r.pagination.total_pages) break;
      }
      return all;
    },
  });
}

/** A page of contacts; `labelIds` keeps those holding any of them (`label_id`, repeated). */
export function useContacts(search: string, page: number, perPage = 20, labelIds: number[] = []) {
  return useQuery({
    queryKey: queryKeys.contacts(search, page, perPage, labelIds),
    // page and per_page are always there, so the query string has begun when the labels follow.
    queryFn: () =>
      apiFetch<ContactList>(
        `/api/v1/contacts${qs({ search, page, per_page: perPage })}${labelIds.map((id) => `&label_id=${id}`).join("")}`,
      ),
    placeholderData: keepPreviousData,
  });
}

/** Contacts matching a name or number, for the send form's destination picker (off while the query is empty). */
export function useContactSuggestions(search: string) {
  return useQuery({
    queryKey: queryKeys.contacts(search, 1, 8),
    queryFn: ({ signal }) => apiFetch<ContactList>(`/api/v1/contacts${qs({ search, page: 1, per_page: 8 })}`, { signal }),
    enabled: search.trim().length > 0,
    placeholderData: keepPreviousData,
  });
}

/** The conversation of a number and customer, with its contact (a send's success line names it). Null when none lists it yet. */
export async function findSentConversation(waNumber: string, destination: string) {
  const r = await apiFetch<ConversationList>(`/api/v1/conversations${qs({ wa_number: waNumber, search: destination, per_page: 10 })}`);
  return r.data.find((c) => c.contact.customer_number === destination) ?? null;
}

export function useLabelMutations() {
  const qc = useQueryClient();
  const done = () => {
    qc.invalidateQueries({ queryKey: queryKeys.labels });
    qc.invalidateQueries({ queryKey: queryKeys.contactsAll });
  };
  return {
    create: useMutation({
      mutationFn: (input: LabelInput) => apiFetch<LabelResponse>("/api/v1/contacts/labels", { method: "POST", body: input }),
      onSuccess: done,
    }),
    update: useMutation({
      mutationFn: ({ id, ...input }: LabelUpdate & { id: number }) =>
        apiFetch<LabelResponse>(`/api/v1/contacts/labels/${id}`, { method: "PATCH", body: input }),
      onSuccess: done,
    }),
    remove: useMutation({
      mutationFn: (id: number) => apiFetch(`/api/v1/contacts/labels/${id}`, { method: "DELETE" }),
      onSuccess: done,
    }),
  };
}

export type HistoryParams = { wa_number: string; customer_source: string; from_date: string; to_date: string; per_page?: number };

/** One page of a history, newest first (order DESC), as the viewer asks for it. */
export function fetchHistoryPage(p: HistoryParams, page: number, signal?: AbortSignal) {
  return apiFetch<HistoryPage>(
    `/api/v1/messages/whatsapp/history${qs({ ...p, order: "DESC", with_pagination: 1, per_page: p.per_page ?? 50, page, include: "update_id,error,routed_to,provider_message_id" })}`,
    { signal },
  );
}

/**
 * Newest page first (order DESC); the viewer reverses pages to show them oldest to newest. Nothing
 * polls: a range that includes today follows the event stream (lib/api-client/history-live.ts),
 * and a past range does not change.
 */
export function useHistory(p: HistoryParams | null) {
  return useInfiniteQuery({
    queryKey: queryKeys.history.one(p ?? ({} as HistoryParams)),
    enabled: !!p,
    initialPageParam: 1,
    queryFn: ({ pageParam, signal }) => fetchHistoryPage(p!, pageParam, signal),
    getNextPageParam: (last) =>
      last.pagination && last.pagination.current_page < last.pagination.total_pages ? last.pagination.current_page + 1 : undefined,
  });
}

export function useUploadMedia() {
  return useMutation({
    mutationFn: (file: File) => {
      const fd = new FormData();
      fd.set("file", file);
      return apiFetch<UploadMediaResponse>("/api/v1/media-upload", { method: "POST", formData: fd }).then((r) => r.data);
    },
  });
}

/**
 * A sent template joins its conversation at once: every history is refetched when next shown (and
 * the contacts lists, as a send to a new number creates its contact).
 */
export function useSendTemplate() {
  const qc = useQueryClient();
  return useMutation({
    // The key names one send attempt: a retry with the same key and body is answered, not sent again.
    mutationFn: ({ body, idempotencyKey }: { body: Record<string, unknown>; idempotencyKey: string }) =>
      apiFetch<SendTemplateResponse>("/api/v1/message_templates/send", {
        method: "POST",
        body,
        headers: { "Idempotency-Key": idempotencyKey },
      }),
    onSuccess: () => {
      qc.invalidateQueries({ queryKey: queryKeys.history.all });
      qc.invalidateQueries({ queryKey: queryKeys.contactsAll });
    },
  });
}

/** A customer's reply injected into a sandbox number (what a real customer's would do), then the history refreshed. */
export function useSandboxReply() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: SandboxReplyInput) => apiFetch<SandboxReplyResponse>("/api/v1/sandbox/inbound", { method: "POST", body }),
    onSuccess: () => qc.invalidateQueries({ queryKey: queryKeys.history.all }),
  });
}
