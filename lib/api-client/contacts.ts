"use client";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { apiFetch, qs } from "./fetch";
import { queryKeys } from "./query-keys";
import type { Contact, ContactList } from "./types";

/** Contacts: a page of the list and the send form's suggestions. Query keys come from query-keys.ts. */

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

/**
 * The team's contact whose number is exactly `digits` (the send form's typed destination), or
 * null; undefined while unknown. The same query (and cache) as the suggestions for that text, so
 * an opt-out change patched into the contacts lists (contact-opt-out.ts) shows here too.
 */
export function useContactByNumber(digits: string | null): Contact | null | undefined {
  const q = useQuery({
    queryKey: queryKeys.contacts(digits ?? "", 1, 8),
    queryFn: ({ signal }) => apiFetch<ContactList>(`/api/v1/contacts${qs({ search: digits ?? "", page: 1, per_page: 8 })}`, { signal }),
    enabled: !!digits,
  });
  if (!digits || !q.data) return digits ? undefined : null;
  return q.data.data.find((c) => c.customer_number === digits) ?? null;
}
