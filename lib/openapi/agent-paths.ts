import { z } from "@/lib/http/zod-es";
import { errors, ok, jsonContent, type Operation } from "./helpers";
import {
  createSavedReplyBody,
  deleteSavedReplyResponse,
  listSavedRepliesQuery,
  listSavedRepliesResponse,
  savedReplyResponse,
  updateSavedReplyBody,
} from "@/lib/saved-replies/schemas";
import { createNoteBody, listNotesResponse, noteResponse } from "@/lib/notes/schemas";

/** The agent's tools of issue 21 (saved replies, notes), spread into the document's paths. */
const conversationPath = z.object({ conversationId: z.string().meta({ description: "Id entero de la conversación" }) });
const savedReplyPath = z.object({ savedReplyId: z.string().meta({ description: "Id entero de la respuesta guardada" }) });

export const agentPaths: Record<string, Partial<Record<"get" | "post" | "put" | "patch" | "delete", Operation>>> = {
  "/api/v1/saved-replies": {
    get: {
      tags: ["Respuestas guardadas"],
      summary: "Listar las respuestas guardadas del equipo (por atajo)",
      description: "`search` filtra por atajo, título o contenido (sin distinguir mayúsculas ni tildes).",
      requestParams: { query: listSavedRepliesQuery },
      responses: { ...ok(listSavedRepliesResponse), ...errors("422") },
    },
    post: {
      tags: ["Respuestas guardadas"],
      summary: "Crear una respuesta guardada",
      description: "El atajo es único en el equipo sin distinguir mayúsculas (se guarda en minúsculas); repetido → 422.",
      requestBody: { content: jsonContent(createSavedReplyBody) },
      responses: { "201": { description: "Creada", content: jsonContent(savedReplyResponse) }, ...errors("400", "415", "422") },
    },
  },
  "/api/v1/saved-replies/{savedReplyId}": {
    get: {
      tags: ["Respuestas guardadas"],
      summary: "Una respuesta guardada",
      requestParams: { path: savedReplyPath },
      responses: { ...ok(savedReplyResponse), ...errors("404") },
    },
    patch: {
      tags: ["Respuestas guardadas"],
      summary: "Cambiar el atajo, el título o el contenido",
      requestParams: { path: savedReplyPath },
      requestBody: { content: jsonContent(updateSavedReplyBody) },
      responses: { ...ok(savedReplyResponse), ...errors("400", "404", "415", "422") },
    },
    delete: {
      tags: ["Respuestas guardadas"],
      summary: "Borrar una respuesta guardada",
      requestParams: { path: savedReplyPath },
      responses: { ...ok(deleteSavedReplyResponse), ...errors("404") },
    },
  },
  "/api/v1/conversations/{conversationId}/notes": {
    get: {
      tags: ["Bandeja"],
      summary: "Notas privadas de una conversación (de la más antigua a la más nueva)",
      description: "Las notas no son mensajes: nunca se envían a WhatsApp ni aparecen en el historial (4.5).",
      requestParams: { path: conversationPath },
      responses: { ...ok(listNotesResponse), ...errors("404") },
    },
    post: {
      tags: ["Bandeja"],
      summary: "Dejar una nota privada (solo para agentes)",
      description:
        "Firmada por el agente de la sesión (con un token, sin agente: `agent_id` null). Se emite `note.created` a los agentes del equipo.",
      requestParams: { path: conversationPath },
      requestBody: { content: jsonContent(createNoteBody) },
      responses: { "201": { description: "Creada", content: jsonContent(noteResponse) }, ...errors("400", "404", "415", "422") },
    },
  },
};
