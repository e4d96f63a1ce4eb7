import { z } from "@/lib/http/zod-es";
import { errors, ok, type Operation } from "./helpers";
import {
  listTemplateChangesResponse,
  listTemplateSyncsResponse,
  syncTemplatesQuery,
  syncTemplatesResponse,
  templateChangesQuery,
} from "@/lib/templates/sync-schemas";
import { templateListItemSchema } from "@/lib/templates/schemas";

/** The templates kept in step with Meta (lib/templates/sync-service.ts), spread into the document's paths. */
const templatePath = z.object({
  templateId: z.string().meta({ description: "El `id` de la plantilla como la lista lo da (el de Meta cuando está sincronizada)" }),
});

export const templateResponse = z.object({ message: z.string(), data: templateListItemSchema }).meta({ id: "TemplateResponse" });

export const templatePaths: Record<string, Partial<Record<"get" | "post" | "delete", Operation>>> = {
  "/api/v1/message_templates/sync": {
    post: {
      tags: ["Plantillas"],
      summary: "Sincronizar las plantillas con Meta",
      description:
        "Lee todas las páginas de `GET /{waba-id}/message_templates` de cada cuenta de WhatsApp Business de los números Cloud API del " +
        "equipo (o solo `business_account_id`) y guarda cada plantilla con su estado, sea cual sea (APPROVED, PENDING, REJECTED con su " +
        "motivo, PAUSED…), su calidad, categoría y contenido. Cada cambio queda en el historial de la plantilla (`source: sync`) y emite " +
        "`template.updated`; las que Meta ya no lista quedan DELETED (nunca se borran). Un elemento que no se puede leer se aparta con su " +
        "motivo y no impide los demás. Un error de Meta (p. ej. 190, token inválido) es la respuesta de esa cuenta, no de la petición: " +
        "las demás se sincronizan igual. El número de sandbox no tiene API de Meta: aparece como `skipped`. Repetirla sin cambios en Meta " +
        "no escribe nada. Propietarios y administradores (con un token, el alcance `webhooks_admin`).",
      requestParams: { query: syncTemplatesQuery },
      responses: { ...ok(syncTemplatesResponse), ...errors("422") },
    },
    get: {
      tags: ["Plantillas"],
      summary: "La última sincronización de cada cuenta de WhatsApp Business",
      description:
        "Cuándo empezó y terminó, quién la pidió (`schedule` cada TEMPLATE_SYNC_INTERVAL_MIN minutos, `cli`, o el agente) y su resultado.",
      responses: { ...ok(listTemplateSyncsResponse), ...errors() },
    },
  },
  "/api/v1/message_templates/{templateId}": {
    delete: {
      tags: ["Plantillas"],
      summary: "Borrar una plantilla",
      description:
        "Pide a Meta que la borre (`DELETE /{waba-id}/message_templates?name=…&hsm_id=…`, solo ese idioma) y la deja DELETED, sin " +
        "quitarla: los mensajes enviados la nombran. Las del sandbox y las de todo el equipo solo se marcan. Si Meta se niega, 422 con sus " +
        "palabras y la plantilla no cambia; sin respuesta de Meta, 502. Borrar una ya borrada no cambia nada. Emite `template.updated`, " +
        "queda en el historial (`source: editor`) y en la auditoría. Propietarios y administradores (token: `webhooks_admin`).",
      requestParams: { path: templatePath },
      responses: { ...ok(templateResponse), ...errors("404", "422") },
    },
  },
  "/api/v1/message_templates/{templateId}/changes": {
    get: {
      tags: ["Plantillas"],
      summary: "Historial de cambios de una plantilla (lo más nuevo primero)",
      description:
        "Cada cambio que Meta hizo en la plantilla: estado (con su motivo), calidad, categoría, avisos y contenido, por webhook o " +
        "visto al sincronizar. Una plantilla de otro equipo responde 404.",
      requestParams: { path: templatePath, query: templateChangesQuery },
      responses: { ...ok(listTemplateChangesResponse), ...errors("404", "422") },
    },
  },
};
