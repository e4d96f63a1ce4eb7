"use client";
import { useMutation, useQueryClient, type QueryKey } from "@tanstack/react-query";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";
import type { Contact, ContactLabelsResponse, ContactList, Label } from "./types";

type Vars = { contact: Pick<Contact, "id">; label: Label };
type Snapshot = { previous: [QueryKey, ContactList | undefined][] };

/**
 * Adds or removes one label on a contact with an optimistic cache update: the chip appears or
 * disappears at once, the server's list replaces it on success, and the snapshot comes back on error.
 */
export function useContactLabel(kind: "add" | "remove") {
  const qc = useQueryClient();
  const patch = (contactId: number, fn: (labels: Label[]) => Label[]) => {
    qc.setQueriesData<ContactList>({ queryKey: queryKeys.contactsAll }, (old) =>
      old ? { ...old, data: old.data.map((c) => (c.id === contactId ? { ...c, labels: fn(c.labels) } : c)) } : old,
    );
  };
  return useMutation<ContactLabelsResponse, Error, Vars, Snapshot>({
    mutationFn: ({ contact, label }) =>
      apiFetch<ContactLabelsResponse>(`/api/v1/contacts/${contact.id}/labels`, {
        method: kind === "add" ? "POST" : "PUT",
        body: { label_ids: [label.id] },
      }),
    onMutate: async ({ contact, label }) => {
      await qc.cancelQueries({ queryKey: queryKeys.contactsAll });
      const previous = qc.getQueriesData<ContactList>({ queryKey: queryKeys.contactsAll });
      patch(contact.id, (labels) =>
        kind === "add"
          ? labels.some((l) => l.id === label.id)
            ? labels
            : // In the server's order (by label id), so its answer does not move the chips (a moved chip loses its focus).
              [...labels, label].sort((a, b) => a.id - b.id)
          : labels.filter((l) => l.id !== label.id),
      );
      return { previous };
    },
    onError: (_err, _vars, snap) => {
      for (const [key, data] of snap?.previous ?? []) qc.setQueryData(key, data);
      // A refused label may have been deleted meanwhile: the picker must stop offering it.
      qc.invalidateQueries({ queryKey: queryKeys.labels });
    },
    onSettled: (res, err, { contact }) => {
      // The answer is the contact's whole label list (whatever another tab or agent did meanwhile):
      // it settles the cached lists at once. They are only marked stale, not refetched now: a list
      // filtered by the label just removed keeps showing the contact, so the agent keeps their
      // place, their focus and the undo; it drops out at the next refetch. After an error the
      // lists are read again.
      if (res) patch(contact.id, () => res.data);
      qc.invalidateQueries({ queryKey: queryKeys.contactsAll, refetchType: err ? "active" : "none" });
    },
  });
}
