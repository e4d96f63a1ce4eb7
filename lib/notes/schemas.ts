import { z } from "@/lib/http/zod-es";

export const NOTE_BODY_MAX = 4096;

/**
 * A private note of a conversation, as the notes API lists it and as `note.created` streams it.
 * `agent_id`/`agent_name` are null for a note written with an API token (no agent).
 */
export const noteSchema = z
  .object({
    id: z.number().int(),
    conversation_id: z.number().int(),
    wa_number: z.string(),
    contact_id: z.number().int(),
    agent_id: z.number().int().nullable(),
    agent_name: z.string().nullable(),
    body: z.string(),
    after_message_id: z
      .number()
      .int()
      .nullable()
      .meta({ description: "El id del último mensaje de la conversación cuando se escribió: la nota va después de él" }),
    created_at: z.string().meta({ description: "ISO 8601" }),
  })
  .meta({ id: "ConversationNote" });
export type NoteDto = z.infer<typeof noteSchema>;

export const createNoteBody = z
  .object({
    body: z
      .string()
      .max(NOTE_BODY_MAX, `El campo body no puede tener más de ${NOTE_BODY_MAX} caracteres.`)
      .refine((s) => s.trim().length > 0, "El campo body es obligatorio.")
      .meta({ description: "El texto de la nota (solo lo ven los agentes; nunca se envía al cliente)" }),
  })
  .meta({ id: "CreateNoteRequest" });
export type CreateNoteInput = z.output<typeof createNoteBody>;

export const listNotesResponse = z.object({ message: z.string(), data: z.array(noteSchema) }).meta({ id: "ListNotesResponse" });
export const noteResponse = z.object({ message: z.string(), data: noteSchema }).meta({ id: "NoteResponse" });
