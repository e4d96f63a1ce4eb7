import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";

export const SAVED_REPLY_NOT_FOUND = "Respuesta guardada no encontrada.";
export const SHORTCUT_TAKEN = "Ya existe una respuesta guardada con ese atajo.";
export const SAVED_REPLY_UPDATE_EMPTY = "Debe indicar al menos un campo a modificar.";
export const SHORTCUT_FORMAT = "El campo shortcut solo admite letras sin tilde, números, guiones y guiones bajos (sin espacios ni «/»).";

/** What `{{…}}` the composer fills in when a saved reply is used. */
export const SAVED_REPLY_VARIABLES = ["name", "number", "agent"] as const;

/** The limits, shared with the dashboard's form (which says them as the agent types). */
export const SAVED_REPLY_LIMITS = { shortcut: 32, title: 100, content: 4096 };

// Typed after "/" in the composer: one word, compared without case (stored lower-case).
const shortcut = z
  .string()
  .trim()
  .min(1, "El campo shortcut es obligatorio.")
  .max(SAVED_REPLY_LIMITS.shortcut, `El campo shortcut no puede tener más de ${SAVED_REPLY_LIMITS.shortcut} caracteres.`)
  .regex(/^[A-Za-z0-9_-]+$/, SHORTCUT_FORMAT)
  .transform((s) => s.toLowerCase())
  .meta({ description: "Lo que el agente escribe tras «/»: letras, números, - y _; sin distinguir mayúsculas", example: "horario" });

const title = z
  .string()
  .trim()
  .min(1, "El campo title es obligatorio.")
  .max(SAVED_REPLY_LIMITS.title, `El campo title no puede tener más de ${SAVED_REPLY_LIMITS.title} caracteres.`);

const content = z
  .string()
  .min(1, "El campo content es obligatorio.")
  .max(SAVED_REPLY_LIMITS.content, `El campo content no puede tener más de ${SAVED_REPLY_LIMITS.content} caracteres.`)
  .refine((s) => s.trim().length > 0, "El campo content es obligatorio.")
  .meta({
    description: "El texto; `{{name}}`, `{{number}}` y `{{agent}}` se rellenan al usarlo (nombre y número del cliente, nombre del agente)",
    example: "Hola {{name}}, abrimos de lunes a sábado de 8 a 18 h. Le atendió {{agent}}.",
  });

export const savedReplySchema = z
  .object({
    id: z.number().int(),
    shortcut: z.string(),
    title: z.string(),
    content: z.string(),
    created_at: z.string(),
    updated_at: z.string(),
  })
  .meta({ id: "SavedReply" });
export type SavedReplyDto = z.infer<typeof savedReplySchema>;

export const createSavedReplyBody = z.object({ shortcut, title, content }).meta({ id: "CreateSavedReplyRequest" });
export type CreateSavedReplyInput = z.output<typeof createSavedReplyBody>;

export const updateSavedReplyBody = z
  .object({ shortcut: shortcut.optional(), title: title.optional(), content: content.optional() })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: SAVED_REPLY_UPDATE_EMPTY })
  .meta({ id: "UpdateSavedReplyRequest" });
export type UpdateSavedReplyInput = z.output<typeof updateSavedReplyBody>;

/** `search` matches the shortcut, the title or the content (case and accents ignored). */
export const listSavedRepliesQuery = pageQuery({ max: 100, fallback: 100 })
  .extend({ search: z.string().trim().max(100, "El campo search no puede tener más de 100 caracteres.").optional() })
  .meta({ id: "ListSavedRepliesQuery" });
export type ListSavedRepliesQuery = z.output<typeof listSavedRepliesQuery>;

export const listSavedRepliesResponse = listResponse(savedReplySchema).meta({ id: "ListSavedRepliesResponse" });
export const savedReplyResponse = z.object({ message: z.string(), data: savedReplySchema }).meta({ id: "SavedReplyResponse" });
export const deleteSavedReplyResponse = z.object({ message: z.string() }).meta({ id: "DeleteSavedReplyResponse" });
