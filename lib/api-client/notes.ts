"use client";
import { useMutation, useQuery, useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { z } from "zod";
import type { listNotesResponse, noteResponse, noteSchema } from "@/lib/notes/schemas";
import { apiFetch } from "./fetch";
import { queryKeys } from "./query-keys";

export type Note = z.infer<typeof noteSchema>;
type NoteList = z.infer<typeof listNotesResponse>;
type NoteResponse = z.infer<typeof noteResponse>;

/** A conversation's private notes; kept current by `note.created` (addNote), not by polling. */
export function useNotes(conversationId: number) {
  return useQuery({
    queryKey: queryKeys.inbox.notes(conversationId),
    queryFn: () => apiFetch<NoteList>(`/api/v1/conversations/${conversationId}/notes`).then((r) => r.data),
    staleTime: Infinity,
  });
}

/** Adds a note to its conversation's cached list once (the author's answer and the event may both bring it). */
export function addNote(qc: QueryClient, note: Note) {
  qc.setQueryData<Note[]>(queryKeys.inbox.notes(note.conversation_id), (old) =>
    old && !old.some((n) => n.id === note.id) ? [...old, note].sort((a, b) => a.id - b.id) : old,
  );
}

export function useCreateNote(conversationId: number) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: string) =>
      apiFetch<NoteResponse>(`/api/v1/conversations/${conversationId}/notes`, { method: "POST", body: { body } }).then((r) => r.data),
    onSuccess: (note) => addNote(qc, note),
  });
}
