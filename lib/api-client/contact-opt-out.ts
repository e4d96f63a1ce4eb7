"use client";
import { useMutation, useQueryClient, type InfiniteData, type QueryClient } from "@tanstack/react-query";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";
import type { Contact, ContactList, Conversation, ConversationList } from "./types";

type OptOut = Contact["marketing_opt_out"];
type ListData = InfiniteData<ConversationList, string | null>;

/** Writes a contact's opt-out into every cached list and conversation that shows it (also used by the event stream). */
export function patchOptOut(qc: QueryClient, contactId: number, optOut: OptOut) {
  qc.setQueriesData<ContactList>({ queryKey: queryKeys.contactsAll }, (old) =>
    old ? { ...old, data: old.data.map((c) => (c.id === contactId ? { ...c, marketing_opt_out: optOut } : c)) } : old,
  );
  qc.setQueriesData<Conversation>({ queryKey: queryKeys.inbox.oneAll }, (old) =>
    old && old.contact.id === contactId ? { ...old, contact: { ...old.contact, marketing_opt_out: optOut } } : old,
  );
  qc.setQueriesData<ListData>({ queryKey: queryKeys.inbox.listsAll }, (old) =>
    old
      ? {
          ...old,
          pages: old.pages.map((p) => ({
            ...p,
            data: p.data.map((c) => (c.contact.id === contactId ? { ...c, contact: { ...c.contact, marketing_opt_out: optOut } } : c)),
          })),
        }
      : old,
  );
}

/** PATCH /api/v1/contacts/{id} {marketing_opt_out}: the answer's opt-out replaces the cached one. */
export function useSetOptOut(contactId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (optedOut: boolean) =>
      apiFetch<{ data: Contact }>(`/api/v1/contacts/${contactId}`, { method: "PATCH", body: { marketing_opt_out: optedOut } }),
    onSuccess: (res) => patchOptOut(qc, contactId, res.data.marketing_opt_out),
  });
}
