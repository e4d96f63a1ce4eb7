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
import { conversationMessagesQuery, conversationMessagesResponse } from "@/lib/conversations/thread-schemas";
import { teamSettingsResponse, updateTeamSettingsInput } from "@/lib/teams/settings-schemas";

/** The agent's tools (saved replies, notes), spread into the document's paths. */
const conversationPath = z.object({ conversationId: z.string().meta({ description: "Id entero de la conversación" }) });
const savedReplyPath = z.object({ savedReplyId: z.string().meta({ description: "Id entero de la respuesta guardada" }) });

export const agentPaths: Record<string, Partial<Record<"get" | "post" | "put" | "patch" | "delete", Operation>>> = {
  "/api/v1/team/settings": {
    get: {
      tags: ["Sesión"],
      summary: "Configuración del equipo que siguen las pantallas del agente",
      description:
        "`default_country`: el formulario de envío antepone su código a un número escrito sin él (la API no: `destination` va siempre con su código de país). `reply_assigns`: responder desde el panel asigna al agente una conversación sin asignar. `waiting_alert_minutes`: pasados esos minutos, la espera de un cliente se marca en color de alerta en la bandeja. Se cambia con `PATCH` (Ajustes → Equipo) o `npm run admin -- team:settings`.",
      responses: { ...ok(teamSettingsResponse), ...errors() },
    },
    patch: {
      tags: ["Sesión"],
      summary: "Cambiar la configuración del equipo",
      description:
        "Propietarios y administradores (token: `agents_admin`). Cada campo es opcional; `default_country: null` quita el país (un número sin código se rechaza). " +
        "El país debe ser un código ISO 3166-1 alfa-2 conocido (422 en `default_country`); `waiting_alert_minutes`, un entero de 1 a 1440 (422 en `waiting_alert_minutes`). Auditoría: `team.settings_updated` con el antes y el después; un cambio que no cambia nada no escribe nada.",
      requestBody: { content: jsonContent(updateTeamSettingsInput) },
      responses: { ...ok(teamSettingsResponse), ...errors("400", "415", "422") },
    },
  },
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
  "/api/v1/conversations/{conversationId}/messages": {
    get: {
      tags: ["Bandeja"],
      summary: "Mensajes de una conversación, el más reciente primero (sin rango de fechas)",
      description:
        "La primera página son los `per_page` mensajes más recientes (por defecto 50, máximo 100) en una sola petición, sea cual sea la antigüedad de la conversación; " +
        "`cursor` (el `next_cursor` de una página, null al final) da los anteriores. Ordenados por id, como el historial (4.5), con `update_id`, `error`, `routed_to` y `provider_message_id`.",
      requestParams: { path: conversationPath, query: conversationMessagesQuery },
      responses: { ...ok(conversationMessagesResponse), ...errors("404", "422") },
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
