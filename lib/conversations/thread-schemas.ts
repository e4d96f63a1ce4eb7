import { z } from "@/lib/http/zod-es";
import { perPageTooBig, PAGE_NOT_INTEGER } from "@/lib/http/list-query";
import { historyEntrySchema } from "@/lib/messages/history-schemas";
import { CURSOR_INVALID } from "./schemas";

export const THREAD_DEFAULT_PER_PAGE = 50;
export const THREAD_MAX_PER_PAGE = 100;
export const THREAD_OK = "Mensajes de la conversación obtenidos correctamente.";

/**
 * `GET /api/v1/conversations/{id}/messages`: the newest `per_page` messages of the conversation,
 * or the ones before `cursor` (a page's `next_cursor`). No dates: one request whatever its age.
 */
export const conversationMessagesQuery = z
  .object({
    per_page: z
      .string()
      .regex(/^\s*\d{1,9}\s*$/, PAGE_NOT_INTEGER)
      .transform((s) => Number(s.trim()))
      .pipe(z.number().min(1, "El campo per_page debe ser al menos 1.").max(THREAD_MAX_PER_PAGE, perPageTooBig(THREAD_MAX_PER_PAGE)))
      .optional()
      .default(THREAD_DEFAULT_PER_PAGE),
    cursor: z
      .string()
      .max(200, CURSOR_INVALID)
      .optional()
      .meta({ description: "`next_cursor` de la página anterior: los mensajes anteriores a ella" }),
  })
  .meta({ id: "ConversationMessagesQuery" });
export type ConversationMessagesQuery = z.output<typeof conversationMessagesQuery>;

/** Newest first, with every `include=` extra of the history (update_id, error, routed_to, provider_message_id). */
export const conversationMessagesResponse = z
  .object({
    message: z.string(),
    data: z.array(historyEntrySchema),
    next_cursor: z.string().nullable().meta({ description: "Los mensajes anteriores; null cuando no hay más" }),
  })
  .meta({ id: "ConversationMessagesResponse" });
export type ConversationMessagesPage = z.output<typeof conversationMessagesResponse>;
