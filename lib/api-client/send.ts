"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { apiFetch, qs } from "./fetch";
import { queryKeys } from "./query-keys";
import type { ConversationList, SendTemplateResponse, UploadMediaResponse } from "./types";

/** The send form: an attachment upload, the send, and the conversation it joined. Query keys come from query-keys.ts. */

/** The conversation of a number and customer, with its contact (a send's success line names it). Null when none lists it yet. */
export async function findSentConversation(waNumber: string, destination: string) {
  const r = await apiFetch<ConversationList>(`/api/v1/conversations${qs({ wa_number: waNumber, search: destination, per_page: 10 })}`);
  return r.data.find((c) => c.contact.customer_number === destination) ?? null;
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
