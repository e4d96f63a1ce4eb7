import { createDocument } from "zod-openapi";
import { z } from "@/lib/http/zod-es";
import { errors, ok, jsonContent, FORBIDDEN_DESCRIPTION, type Operation } from "./helpers";
import { agentPaths } from "./agent-paths";
import { teamPaths } from "./team-paths";
import { auditPaths } from "./audit-paths";
import { numberPaths } from "./number-paths";
import { tokenPaths } from "./token-paths";
import { routingPaths } from "./routing-paths";
import { webhookEndpointPaths } from "./webhook-endpoint-paths";
import { SCOPES } from "@/lib/auth/permissions";
import { templatePaths } from "./template-paths";
import { listWaNumbersQuery, listWaNumbersResponse } from "@/lib/numbers/schemas";
import {
  createLabelBody,
  labelResponse,
  deleteLabelResponse,
  listLabelsQuery,
  listLabelsResponse,
  updateLabelBody,
} from "@/lib/labels/schemas";
import {
  MARKETING_OPTED_OUT,
  MARKETING_OPTED_OUT_AT_SEND,
  contactLabelIdsBody,
  contactLabelsResponse,
  contactResponse,
  listContactsQuery,
  listContactsResponse,
  updateContactBody,
} from "@/lib/contacts/schemas";
import { listTemplatesQuery, listTemplatesResponse } from "@/lib/templates/schemas";
import { templateDraftSchema } from "@/lib/templates/draft-schema";
import { templateResponse } from "./template-paths";
import { sendTemplateInput, sendTemplateResponse } from "@/lib/messages/send-schemas";
import { sendReplyInput } from "@/lib/messages/reply-schemas";
import { sendBulkRequest, sendBulkResponse } from "@/lib/messages/send-bulk-schemas";
import { historyQuerySchema, historyResponseSchema } from "@/lib/messages/history-schemas";
import { uploadMediaResponse } from "@/lib/media/schemas";
import { updateResponse } from "@/lib/delivery/updates-schemas";
import { sandboxInboundInput, sandboxInboundResponse, webhookReceiptResponse, webhookVerifyQuery } from "@/lib/meta-webhooks/schemas";
import { listWebhookDeliveriesQuery, listWebhookDeliveriesResponse } from "@/lib/outgoing-webhooks/schemas";
import { agentResponseSchema, loginRequestSchema } from "@/lib/auth/session-schemas";
import {
  conversationResponse,
  listConversationsQuery,
  listConversationsResponse,
  updateConversationBody,
} from "@/lib/conversations/schemas";
import {
  importPreviewResponse,
  importQuery,
  importResponse,
  importStreamLine,
  IMPORT_TOO_LARGE,
  IMPORT_CONTENT_TYPE,
} from "@/lib/contacts/import-schemas";
import { audienceSizeQuery, audienceSizeResponse } from "@/lib/audiences/schemas";
import { messageStatsQuery, messageStatsResponse } from "@/lib/messages/stats-schemas";
import { REPORT_PRECISION, reportAgentsResponse, reportQuery, reportSummaryResponse } from "@/lib/reports/schemas";
import { errorSchema } from "@/lib/http/list-query";
import { healthResponse } from "@/lib/health/schemas";
import { eventStreamQuery } from "@/lib/events/schemas";
import { EVENT_TYPES, liveEvent } from "@/lib/events/catalogue";
import {
  broadcastResponse,
  messagingLimitPreviewQuery,
  messagingLimitPreviewResponse,
  createBroadcastRequest,
  listBroadcastsQuery,
  listBroadcastsResponse,
  recipientsQuery,
  recipientsResponse,
  timelineQuery,
  timelineResponse,
} from "@/lib/broadcasts/schemas";

const contactPath = z.object({ contactId: z.string().meta({ description: "Id entero del contacto" }) });
const labelPath = z.object({ labelId: z.string().meta({ description: "Id entero de la etiqueta" }) });
const conversationPath = z.object({ conversationId: z.string().meta({ description: "Id entero de la conversación" }) });
const broadcastPath = z.object({ broadcastId: z.string().meta({ description: "Id entero de la difusión" }) });
const broadcastChange = (summary: string, description: string): Operation => ({
  tags: ["Difusiones"],
  summary,
  description,
  requestParams: { path: broadcastPath },
  responses: { ...ok(broadcastResponse), ...errors("404", "409") },
});
const channelPath = z.object({ channel: z.literal("whatsapp") });
const updatePath = z.object({ update_id: z.string().meta({ description: "update_id devuelto por el envío" }) });
const mediaPath = z.object({ path: z.string().meta({ description: "media_path, p. ej. uploads/team1/<uuid>.pdf" }) });
const idempotencyHeader = z.object({
  "Idempotency-Key": z.string().max(200).optional().meta({
    description:
      "Reintento seguro: la misma clave con el mismo cuerpo devuelve la primera respuesta y no crea nada; con otro cuerpo → 422.",
  }),
});
const multipartUpload = z.object({
  file: z.string().meta({
    format: "binary",
    description: "JPEG/PNG ≤ 5 MB, MP4 ≤ 16 MB, PDF ≤ 16 MB, OGG (Opus)/MP3 ≤ 16 MB, WebP ≤ 500 KB; tipo detectado por contenido",
  }),
});
const simpleMessage = z.object({ message: z.string() });
const failureBudget = {
  description: "Demasiados intentos fallidos desde esta dirección (AUTH_FAILURES_PER_ADDRESS cada 15 min); Retry-After",
  content: jsonContent(simpleMessage),
};

const paths: Record<string, Partial<Record<"get" | "post" | "put" | "patch" | "delete", Operation>>> = {
  "/api/v1/message_templates/send": {
    post: {
      tags: ["Mensajes"],
      summary: "Enviar una plantilla (4.1)",
      description:
        "Guarda el mensaje como QUEUED y responde su update_id; la entrega es asíncrona. media_path: DOCUMENT → .pdf; IMAGE → .jpg/.jpeg/.png; VIDEO → .mp4; nunca con encabezado TEXT o sin encabezado; de otro equipo → 403; omitido → adjunto por defecto de la plantilla. button_params: [{index, value}] para cada botón URL con variable ({{1}} en su url; index = su posición en BUTTONS, desde 0): requerido para esos botones, rechazado para los demás.",
      requestParams: { header: idempotencyHeader },
      requestBody: { content: jsonContent(sendTemplateInput) },
      responses: { ...ok(sendTemplateResponse), ...errors("400", "403", "413", "415", "422") },
    },
  },
  "/api/v1/message_templates/send_bulk": {
    post: {
      tags: ["Mensajes"],
      summary: "Enviar una plantilla a hasta 1.000 destinatarios",
      description:
        "Los campos comunes se validan una vez con los mensajes de 4.1 (422 si fallan); cada destinatario por separado: sus errores aparecen en `results` sin impedir el resto. Un update_id por destinatario aceptado.",
      requestParams: { header: idempotencyHeader },
      requestBody: { content: jsonContent(sendBulkRequest) },
      responses: { ...ok(sendBulkResponse), ...errors("400", "403", "413", "415", "422") },
    },
  },
  "/api/v1/broadcasts": {
    post: {
      tags: ["Difusiones"],
      summary: "Crear una difusión: una plantilla a los contactos de una audiencia por etiquetas",
      description:
        "Los campos comunes se validan una vez, en el orden y con los textos de 4.1 (número, plantilla, bot, campaña, parámetros, media_path); " +
        "cada etiqueta de `audience` debe ser del equipo (422 en `audience.labels_any` etc.). Un valor de parámetro puede usar columnas del contacto " +
        "(`{{name}}`, `{{customer_id}}`, `{{number}}`), también en `button_params` (botones URL con variable: requerido para cada uno, con el " +
        "mismo 422 que un envío individual; el enlace guardado en el payload es el de cada contacto). Encola un mensaje QUEUED por contacto de la audiencia, por lotes de 5.000 que se confirman " +
        "uno a uno (el worker empieza a enviar con el primero; `counts.recipients` crece mientras tanto), y responde 201 cuando todos están en cola: " +
        "un destinatario que no pasa las validaciones (número inválido, parámetro vacío para ese contacto…) queda rechazado con su motivo " +
        "(`GET …/recipients?status=REJECTED`). `sent_group` por defecto es el nombre. Con `scheduled_at` futuro los mensajes se encolan ya, " +
        "con `next_attempt_at = scheduled_at`, y la difusión queda SCHEDULED hasta esa hora. Emite `broadcast.updated`. " +
        "Con `Idempotency-Key`, un reintento con la misma clave responde la primera difusión (su estado actual, cabecera " +
        "`idempotent-replayed: true`) sin crear ni encolar nada más.",
      requestParams: { header: idempotencyHeader },
      requestBody: { content: jsonContent(createBroadcastRequest) },
      responses: {
        "201": { description: "Creada", content: jsonContent(broadcastResponse) },
        ...errors("400", "403", "413", "415", "422"),
      },
    },
    get: {
      tags: ["Difusiones"],
      summary: "Listar las difusiones del equipo (más recientes primero)",
      requestParams: { query: listBroadcastsQuery },
      responses: { ...ok(listBroadcastsResponse), ...errors("422") },
    },
  },
  "/api/v1/broadcasts/messaging-limit": {
    get: {
      tags: ["Difusiones"],
      summary: "El límite de mensajería de un número y las olas que tomaría una difusión de ese tamaño",
      description:
        "Meta deja que un número abra conversaciones iniciadas por la empresa con tantos clientes únicos por ventana móvil de 24 h " +
        "como diga su nivel (`messaging_limit_tier`: TIER_250, TIER_1K, TIER_10K, TIER_100K, TIER_UNLIMITED). `used`: clientes a los " +
        "que el número envió una plantilla en la ventana, sin los que escribieron en las últimas 24 h (ventana de atención abierta). " +
        "Una difusión mayor que lo que queda sale en olas: la primera con lo que queda, las siguientes a medida que la ventana libera " +
        "cupo (estimación). Sin nivel conocido o TIER_UNLIMITED, `limit` es null y todo sale en una ola. Número de otro equipo → 404.",
      requestParams: { query: messagingLimitPreviewQuery },
      responses: { ...ok(messagingLimitPreviewResponse), ...errors("404", "422") },
    },
  },
  "/api/v1/broadcasts/{broadcastId}": {
    get: {
      tags: ["Difusiones"],
      summary: "Una difusión con sus conteos por estado, respuestas y fallos por código",
      description:
        "`counts` cuenta cada mensaje una vez, en su estado actual. `replied`: destinatarios cuyo mensaje salió (SENDED o posterior) y " +
        "cuya conversación recibió un mensaje del cliente después de encolado el envío (o de su hora programada). `messaging_limit`: el plan " +
        "de olas dentro del límite de mensajería del número (lo que falta, lo que espera cupo y cuándo sale). De otro equipo → 404.",
      requestParams: { path: broadcastPath },
      responses: { ...ok(broadcastResponse), ...errors("404") },
    },
  },
  "/api/v1/broadcasts/{broadcastId}/pause": {
    post: broadcastChange(
      "Pausar (SCHEDULED o SENDING → PAUSED)",
      "Sus mensajes en cola salen de la cola: el worker no envía ninguno más (lo comprueba justo antes de cada envío). Otro estado → 409.",
    ),
  },
  "/api/v1/broadcasts/{broadcastId}/resume": {
    post: broadcastChange(
      "Reanudar (PAUSED → SENDING, o SCHEDULED si su hora no llegó)",
      "Sus mensajes vuelven a la cola con el ritmo del número. Otro estado → 409.",
    ),
  },
  "/api/v1/broadcasts/{broadcastId}/cancel": {
    post: broadcastChange(
      "Cancelar (→ CANCELLED)",
      "Lo que no se envió no se envía: sus mensajes en cola pasan a FAILED con el error «Difusión cancelada» (contados en `cancelled`). DONE o CANCELLED → 409.",
    ),
  },
  "/api/v1/broadcasts/{broadcastId}/recipients": {
    get: {
      tags: ["Difusiones"],
      summary: "Destinatarios: sus mensajes y los contactos rechazados, paginados y filtrables por estado",
      description:
        "Con `format=csv` o `Accept: text/csv`, la lista entera en CSV (transmitida por partes; cabecera " +
        "`number,name,status,error_code,error_title,replied,update_id`; un valor que empieza por = + - @ lleva un apóstrofo delante).",
      requestParams: { path: broadcastPath, query: recipientsQuery },
      responses: {
        "200": {
          description: "OK",
          content: { ...jsonContent(recipientsResponse), "text/csv": { schema: z.string() } },
        },
        ...errors("404", "422"),
      },
    },
  },
  "/api/v1/broadcasts/{broadcastId}/timeline": {
    get: {
      tags: ["Difusiones"],
      summary: "Envíos en el tiempo (por minuto u hora)",
      requestParams: { path: broadcastPath, query: timelineQuery },
      responses: { ...ok(timelineResponse), ...errors("404", "422") },
    },
  },
  "/api/v1/message_templates": {
    get: {
      tags: ["Plantillas"],
      summary: "Listar plantillas (estructura 2.1)",
      requestParams: { query: listTemplatesQuery },
      responses: { ...ok(listTemplatesResponse), ...errors("422") },
    },
    post: {
      tags: ["Plantillas"],
      summary: "Crear una plantilla y enviarla a Meta para su revisión",
      description:
        "Valida el borrador con las reglas de Meta (nombre, idioma, categoría MARKETING o UTILITY, encabezado, cuerpo con variables " +
        "{{1}} o {{nombre}} y un ejemplo para cada una, pie sin variables, hasta 10 botones con las respuestas rápidas juntas) y lo envía " +
        "a la cuenta de WhatsApp Business del número (`POST /{waba-id}/message_templates`). Responde 201 con la plantilla en el estado que " +
        "Meta le da (PENDING mientras la revisa); después la cambian los webhooks de Meta. Si Meta la rechaza, 422 con sus palabras en " +
        "`message` y `errors.template`, y no se guarda nada. Para el número de sandbox queda PENDING y se aprueba sola pasados " +
        "SANDBOX_TEMPLATE_REVIEW_MS. Emite `template.updated`, queda en el historial (`source: editor`) y en la auditoría. Propietarios y " +
        "administradores (token: `webhooks_admin`).",
      requestBody: { content: jsonContent(templateDraftSchema) },
      responses: {
        "201": { description: "Enviada", content: jsonContent(templateResponse) },
        ...errors("400", "413", "415", "422", "502"),
      },
    },
  },
  "/api/v1/media-upload": {
    post: {
      tags: ["Medios"],
      summary: "Subir un archivo (devuelve media_path)",
      requestBody: { content: { "multipart/form-data": { schema: multipartUpload } } },
      responses: { ...ok(uploadMediaResponse), ...errors("413", "415", "422") },
    },
  },
  "/api/v1/media/{path}": {
    get: {
      tags: ["Medios"],
      summary: "Descargar un archivo propio del equipo",
      requestParams: { path: mediaPath },
      responses: { "200": { description: "El archivo" }, ...errors("404") },
    },
  },
  "/api/v1/contacts/labels": {
    get: {
      tags: ["Etiquetas"],
      summary: "Listar etiquetas (4.2)",
      description: "Cada etiqueta es el registro 2.2 más `contacts_count`: cuántos contactos del equipo la tienen.",
      requestParams: { query: listLabelsQuery },
      responses: { ...ok(listLabelsResponse), ...errors("422") },
    },
    post: {
      tags: ["Etiquetas"],
      summary: "Crear una etiqueta",
      requestBody: { content: jsonContent(createLabelBody) },
      responses: { "201": { description: "Creada", content: jsonContent(labelResponse) }, ...errors("400", "415", "422") },
    },
  },
  "/api/v1/contacts/labels/{labelId}": {
    patch: {
      tags: ["Etiquetas"],
      summary: "Renombrar o recolorear una etiqueta",
      requestParams: { path: labelPath },
      requestBody: { content: jsonContent(updateLabelBody) },
      responses: { ...ok(labelResponse), ...errors("400", "404", "415", "422") },
    },
    delete: {
      tags: ["Etiquetas"],
      summary: "Borrar una etiqueta (y sus asignaciones)",
      requestParams: { path: labelPath },
      responses: { ...ok(deleteLabelResponse), ...errors("404") },
    },
  },
  "/api/v1/contacts/{contactId}/labels": {
    post: {
      tags: ["Etiquetas"],
      summary: "Añadir etiquetas a un contacto (4.3, acumulativo, máx. 5)",
      requestParams: { path: contactPath },
      requestBody: { content: jsonContent(contactLabelIdsBody) },
      responses: { ...ok(contactLabelsResponse), ...errors("400", "404", "415", "422") },
    },
    put: {
      tags: ["Etiquetas"],
      summary: "Quitar etiquetas de un contacto (4.4, selectivo)",
      requestParams: { path: contactPath },
      requestBody: { content: jsonContent(contactLabelIdsBody) },
      responses: { ...ok(contactLabelsResponse), ...errors("400", "404", "415", "422") },
    },
  },
  "/api/v1/contacts/{contactId}": {
    patch: {
      tags: ["Contactos"],
      summary: "Dar de baja del marketing (o volver a alta) a un contacto",
      description:
        "`marketing_opt_out: true` guarda la baja (motivo `agent`; si ya estaba de baja se conservan la fecha y el motivo de la primera); " +
        "`false` la quita. Un contacto de baja no recibe plantillas MARKETING: el envío responde 422 `" +
        MARKETING_OPTED_OUT +
        "`, y los envíos masivos y las difusiones lo rechazan con ese motivo. Lo que ya estaba en cola al darse de baja no se envía: " +
        `queda FAILED con el error \`{"code": ${MARKETING_OPTED_OUT_AT_SEND.code}, "title": "${MARKETING_OPTED_OUT_AT_SEND.title}"}\`. ` +
        "Las plantillas UTILITY y las respuestas libres siguen llegando. " +
        "La baja también llega sola: un mensaje del cliente que es solo una palabra de `OPT_OUT_WORDS` (SALIR, STOP, BAJA por defecto, " +
        "sin distinguir mayúsculas ni tildes) o un envío que Meta rechaza con el error 131050. Se emite `contact.updated`.",
      requestParams: { path: contactPath },
      requestBody: { content: jsonContent(updateContactBody) },
      responses: { ...ok(contactResponse), ...errors("400", "404", "415", "422") },
    },
  },
  "/api/v1/contacts": {
    get: {
      tags: ["Contactos"],
      summary: "Listar contactos con sus etiquetas",
      description:
        "Búsqueda por nombre o número (`search`) y filtro por etiquetas (`label_id`, repetible: contactos con alguna de ellas; " +
        "una etiqueta que no es del equipo responde 422 `Etiqueta no encontrada.`). `last_activity_at`: el último mensaje enviado o " +
        "recibido en cualquiera de sus conversaciones (null si no tiene).",
      requestParams: { query: listContactsQuery },
      responses: { ...ok(listContactsResponse), ...errors("422") },
    },
  },
  "/api/v1/contacts/import": {
    post: {
      tags: ["Contactos"],
      summary: "Importar contactos desde un CSV",
      description:
        "El cuerpo es el CSV (UTF-8 con o sin BOM; separador `,` o `;`, detectado en la primera línea). Encabezado obligatorio con " +
        "`number` (o `customer_number`, `número`, `teléfono`, `phone`, `celular`, `whatsapp`), y opcionales `name` (`nombre`), " +
        "`customer_id` y `labels` (`etiquetas`: títulos separados por `|`). Números normalizados como en los envíos. Reimportar actualiza " +
        "(nombre no vacío, customer_id, etiquetas añadidas; nunca se quitan ni se duplican contactos). Cada fila rechazada se informa con " +
        "su línea (el encabezado es la línea 1) y el motivo; un número repetido en el archivo: vale la primera fila y las siguientes se " +
        "rechazan. Etiquetas desconocidas o por encima de 5 por contacto: aviso en la fila. Con `Accept: application/x-ndjson` responde " +
        'una línea `{"type":"progress","processed":N}` por lote de 2.000 filas y al final `{"type":"done",message,data}`. ' +
        "Etiquetas que el equipo no tiene: `dry_run=1` lee y comprueba el archivo sin escribir nada y las lista " +
        "(`ContactImportPreviewResponse`: título, filas que la nombran y si podría crearse); con `create_missing_labels=1` la " +
        "importación las crea (una vez, en el equipo, con la regla de títulos de la API de etiquetas; como máximo 50 por importación) " +
        "y las asigna respetando el máximo de 5 por contacto; `data.labels_created` dice cuáles creó, y un título que no puede crearse " +
        "es un aviso en su fila. `rejected_rows=1` devuelve cada fila rechazada con sus celdas (`row`), su motivo como código " +
        "(`code`) y el encabezado (`columns`), para descargarlas como CSV; se guardan las 1.000 primeras y `rejected_total` las cuenta. " +
        "Sin estos parámetros la respuesta es la de siempre. Una celda escrita como la escapan nuestros CSV (`'+57…`, `'=…`) se lee sin el apóstrofo.",
      requestParams: { query: importQuery },
      requestBody: {
        content: { "text/csv": { schema: z.string().meta({ example: "number;name;labels\n+57 300 123 4567;Ana;VIP|Bogotá\n" }) } },
      },
      responses: {
        "200": {
          description: "Importación terminada (o flujo NDJSON de progreso); con `dry_run=1`, la comprobación del archivo",
          content: {
            "application/json": { schema: z.union([importResponse, importPreviewResponse]) },
            "application/x-ndjson": { schema: importStreamLine },
          },
        },
        ...errors("422"),
        "413": { description: `Archivo de más de 10 MB: \`${IMPORT_TOO_LARGE}\``, content: jsonContent(errorSchema) },
        "415": { description: `\`${IMPORT_CONTENT_TYPE}\``, content: jsonContent(errorSchema) },
      },
    },
  },
  "/api/v1/health": {
    get: {
      tags: ["Sistema"],
      summary: "Salud del proceso: primario y réplica de lectura",
      description:
        "Público y sin datos de ningún equipo. 200 mientras el primario responde (`degraded` si la réplica está caída o retrasada más de " +
        "READ_REPLICA_MAX_LAG_S: las lecturas van entonces al primario); 503 si el primario no responde.",
      security: [],
      responses: { ...ok(healthResponse), "503": { description: "El primario no responde", content: jsonContent(healthResponse) } },
    },
  },
  "/api/v1/audiences/size": {
    get: {
      tags: ["Contactos"],
      summary: "Tamaño de una audiencia por etiquetas",
      description:
        "Contactos con número que tienen al menos una etiqueta de `any` (si se indica) y todas las de `all` (si se indica), menos los que " +
        "tienen alguna de `exclude`. Debe indicarse `any` o `all`. Una etiqueta de otro equipo responde 422 como una inexistente.",
      requestParams: { query: audienceSizeQuery },
      responses: { ...ok(audienceSizeResponse), ...errors("422") },
    },
  },
  "/api/v1/messages/stats": {
    get: {
      tags: ["Mensajes"],
      summary: "Estadísticas de envíos (mensajes OUTBOUND) por estado y código de error",
      description:
        "Filtros opcionales y combinables: `sent_group`, `template` (nombre), `wa_number` (número de la empresa del equipo; otro → 422) " +
        "y días UTC `from`/`to` (incluidos). Se responde desde un resumen diario mantenido por triggers en la misma transacción que " +
        "cada mensaje y cambio de estado, por lo que es exacto.",
      requestParams: { query: messageStatsQuery },
      responses: { ...ok(messageStatsResponse), ...errors("422") },
    },
  },
  "/api/v1/reports/summary": {
    get: {
      tags: ["Informes"],
      summary: "Informe por día: primera respuesta, resolución, conversaciones y mensajes",
      description:
        "Días UTC `from`/`to` incluidos (por defecto los últimos 30; máximo 366), y filtros opcionales combinables: `wa_number`, " +
        "`label_id` (contactos que hoy tienen la etiqueta) y `agent_id` (0: la API o sin asignar); uno de otro equipo → 422. " +
        "Tiempos en segundos: mediana y percentil 90 sobre todas las muestras del día o del rango. Se responde desde resúmenes " +
        "que los triggers de `messages` y `conversations` mantienen en la misma transacción, nunca recorriendo los mensajes. " +
        `Precisión de las medianas y percentiles: ${REPORT_PRECISION}`,
      requestParams: { query: reportQuery },
      responses: { ...ok(reportSummaryResponse), ...errors("422") },
    },
  },
  "/api/v1/reports/agents": {
    get: {
      tags: ["Informes"],
      summary: "Informe por agente del rango",
      description: "Los mismos filtros y cifras que `/api/v1/reports/summary`, una fila por agente (0: la API o sin asignar).",
      requestParams: { query: reportQuery },
      responses: { ...ok(reportAgentsResponse), ...errors("422") },
    },
  },
  "/api/v1/messages/{channel}/history": {
    get: {
      tags: ["Mensajes"],
      summary: "Historial de una conversación (4.5)",
      description: "Sin with_pagination=1 devuelve todos los mensajes del rango (máx. 90 días por defecto), transmitidos en streaming.",
      requestParams: { path: channelPath, query: historyQuerySchema },
      responses: { ...ok(historyResponseSchema), ...errors("404", "422") },
    },
  },
  "/api/v1/messages/{channel}/send": {
    post: {
      tags: ["Mensajes"],
      summary: "Responder a un cliente con un mensaje libre (ventana de 24 horas)",
      description:
        'Solo dentro de las 24 horas siguientes al último mensaje del cliente a ese número; fuera de ella → 422 en customer_source ("La ventana de 24 horas para responder a este cliente está cerrada: envíe una plantilla."). ' +
        "`type`: text (≤ 4096 caracteres, preview_url), image, video, audio, document, sticker (media_path de /api/v1/media-upload: image .jpg/.jpeg/.png, video .mp4, document .pdf, audio .ogg/.mp3, sticker .webp; de otro equipo → 403), " +
        "location, contacts, quick_reply (1–3 opciones, títulos ≤ 20) y list (≤ 10 filas en total, títulos ≤ 24, botón ≤ 20). `context_update_id` cita un mensaje de la conversación. " +
        "Se responde como 4.1 y se entrega como una plantilla (cola, ritmo, reintentos, estados); un error 131047 de Meta lo deja FAILED con su motivo. Desde una sesión de agente se guarda sender AGENT con agent_id y agent_name; con token, SYSTEM y agent_id 0.",
      requestParams: { path: channelPath, header: idempotencyHeader },
      requestBody: { content: jsonContent(sendReplyInput) },
      responses: { ...ok(sendTemplateResponse), ...errors("400", "403", "404", "413", "415", "422") },
    },
  },
  "/api/v1/updates/{update_id}": {
    get: {
      tags: ["Mensajes"],
      summary: "Un mensaje con su enrutamiento, error y eventos de estado",
      requestParams: { path: updatePath },
      responses: { ...ok(updateResponse), ...errors("404") },
    },
  },
  "/api/v1/updates/{update_id}/media": {
    get: {
      tags: ["Mensajes"],
      summary: "Descargar el adjunto de un mensaje entrante (a través del canal)",
      requestParams: { path: updatePath },
      responses: { "200": { description: "El archivo, con su tipo de contenido" }, ...errors("404") },
    },
  },
  "/api/v1/wa_numbers": {
    get: {
      tags: ["Catálogos"],
      summary: "Números de la empresa",
      requestParams: { query: listWaNumbersQuery },
      responses: { ...ok(listWaNumbersResponse), ...errors("422") },
    },
  },
  "/api/v1/webhook_deliveries": {
    get: {
      tags: ["Webhooks"],
      summary: "Webhooks salientes: entregas a las URL de bots, campañas y endpoints de webhook",
      description:
        "Cada entrega es un POST firmado (`X-Signature-256`) de `message.received` o `message.status` a la URL del bot o la campaña a la que se enrutó el mensaje, con sus intentos y la última respuesta. " +
        "El webhook `message.status` y el evento en vivo `message.status` de `GET /api/v1/events` cuentan el mismo hecho (el estado de un mensaje cambió) por dos canales: " +
        "el evento llega a los paneles del equipo en cada cambio; el webhook, solo a la URL del destino enrutado, con `previous_status` y los datos del mensaje.",
      requestParams: { query: listWebhookDeliveriesQuery },
      responses: { ...ok(listWebhookDeliveriesResponse), ...errors("422") },
    },
  },
  "/api/v1/webhooks/whatsapp": {
    get: {
      tags: ["Webhooks"],
      summary: "Webhook entrante de Meta: verificación (hub.challenge)",
      security: [],
      requestParams: { query: webhookVerifyQuery },
      responses: {
        "200": { description: "hub.challenge en texto plano" },
        "403": { description: "Token de verificación incorrecto" },
        "429": failureBudget,
      },
    },
    post: {
      tags: ["Webhooks"],
      summary: "Webhook entrante de la WhatsApp Cloud API (Meta): mensajes y estados",
      description:
        "X-Hub-Signature-256 se verifica sobre el cuerpo sin procesar antes de leerlo; firma ausente o incorrecta → 401 y no se guarda nada.",
      security: [],
      responses: { ...ok(webhookReceiptResponse), "401": { description: "Firma ausente o incorrecta" }, "429": failureBudget },
    },
  },
  "/api/v1/sandbox/inbound": {
    post: {
      tags: ["Webhooks"],
      summary: "Simular un mensaje de un cliente (números sandbox)",
      requestBody: { content: jsonContent(sandboxInboundInput) },
      responses: { ...ok(sandboxInboundResponse), ...errors("400", "415", "422") },
    },
  },
  "/api/v1/conversations": {
    get: {
      tags: ["Bandeja"],
      summary: "Conversaciones del equipo, la actividad más reciente primero",
      description:
        "Una conversación es (número de la empresa, contacto). Filtros: `wa_number`, `label_id` (repetible: contactos con alguna), `needs_reply=1` (el último mensaje es del cliente), " +
        "`unread=1`, `search` (nombre o número, sin distinguir acentos ni mayúsculas), `assignee=me|none|<id>`, `status=open|resolved`. Paginación con `cursor` opaco (`next_cursor`, null al final).",
      requestParams: { query: listConversationsQuery },
      responses: { ...ok(listConversationsResponse), ...errors("422") },
    },
  },
  "/api/v1/conversations/{conversationId}": {
    get: {
      tags: ["Bandeja"],
      summary: "Una conversación",
      requestParams: { path: conversationPath },
      responses: { ...ok(conversationResponse), ...errors("404") },
    },
    patch: {
      tags: ["Bandeja"],
      summary: "Asignar (o desasignar con null) y abrir o resolver",
      description: "Un mensaje nuevo del cliente reabre una conversación resuelta. Se emite `conversation.updated`.",
      requestParams: { path: conversationPath },
      requestBody: { content: jsonContent(updateConversationBody) },
      responses: { ...ok(conversationResponse), ...errors("400", "404", "415", "422") },
    },
  },
  "/api/v1/conversations/{conversationId}/read": {
    post: {
      tags: ["Bandeja"],
      summary: "Marcar como leída (unread_count = 0; emite conversation.read)",
      description:
        "En un número cloud_api además encola el acuse de lectura del último mensaje del cliente, que el worker de entrega envía a Meta (con reintentos).",
      requestParams: { path: conversationPath },
      responses: { ...ok(conversationResponse), ...errors("404") },
    },
  },
  "/api/v1/events": {
    get: {
      tags: ["Eventos"],
      summary: "Eventos del equipo en vivo (Server-Sent Events)",
      description:
        `Flujo \`text/event-stream\` con los eventos del equipo del llamador: ${EVENT_TYPES.map((t) => `\`${t}\``).join(", ")} ` +
        "(cada uno con `id:`, `event:` y `data:` JSON; la forma de cada `data` está en `LiveEvent`). " +
        "`broadcast.updated` llega en cada cambio de estado de una difusión y, como mucho una vez por segundo, mientras cambian sus conteos; " +
        "`note.created` es una nota privada nueva de una conversación (su `data` es la nota). " +
        "Tras una reconexión, `Last-Event-ID` (cabecera, o `last_event_id` en la primera conexión) " +
        "reenvía lo perdido desde el registro de eventos (≥ 24 h); si ya no puede completarse llega `event: reset` y el cliente debe recargar. " +
        "Un comentario `: ping` cada 15 s mantiene viva la conexión. Filtros opcionales: `wa_number`, `contact_id`.",
      requestParams: { query: eventStreamQuery, header: z.object({ "Last-Event-ID": z.string().optional() }) },
      responses: {
        "200": {
          description: "Flujo de eventos: cada evento es un `LiveEvent` (`event:` su tipo, `data:` su JSON)",
          content: { "text/event-stream": { schema: liveEvent } },
        },
        ...errors("422"),
      },
    },
  },
  "/api/v1/auth/login": {
    post: {
      tags: ["Sesión"],
      summary: "Iniciar sesión de agente (cookie)",
      description:
        "Intentos fallidos frenados, nunca bloqueados: tras 5 contraseñas erróneas de un correo desde una dirección (SIGN_IN_FREE_FAILURES), cada intento siguiente espera 2, 4, 8… hasta 60 s (SIGN_IN_MAX_DELAY_SECONDS); desde otras direcciones 10 s como mucho y desde una dirección donde el agente ya inició sesión, nada. " +
        "Además, un presupuesto por dirección (AUTH_FAILURES_PER_ADDRESS). Mientras tanto, 429 con Retry-After, igual para correos existentes o no; 503 si hay demasiadas contraseñas verificándose a la vez. " +
        "Cada agente tiene hasta SESSIONS_PER_AGENT (10) sesiones abiertas: iniciar otra cierra la más antigua, cuya siguiente solicitud recibe un 401 que lo explica.",
      security: [],
      requestBody: { content: jsonContent(loginRequestSchema) },
      responses: { ...ok(agentResponseSchema), ...errors("400", "415", "422", "503") },
    },
  },
  "/api/v1/auth/logout": {
    post: { tags: ["Sesión"], summary: "Cerrar sesión", responses: { ...ok(simpleMessage) } },
  },
  "/api/v1/auth/me": {
    get: { tags: ["Sesión"], summary: "Agente de la sesión actual", responses: { ...ok(agentResponseSchema), ...errors() } },
  },
  ...agentPaths,
  ...teamPaths,
  ...auditPaths,
  ...numberPaths,
  ...tokenPaths,
  ...templatePaths,
  ...routingPaths,
  ...webhookEndpointPaths,
};

// Every operation that needs a caller may refuse it: its role or its token's scopes (docs/roles.md).
for (const ops of Object.values(paths)) {
  for (const op of Object.values(ops)) {
    if (op && !(op.security && op.security.length === 0) && op.responses && !op.responses["403"]) {
      op.responses["403"] = { description: FORBIDDEN_DESCRIPTION, content: jsonContent(errorSchema) };
    }
  }
}

let cached: ReturnType<typeof createDocument> | undefined;

/** Built once per process from the same zod schemas the handlers parse with. */
export function getOpenApiDocument() {
  cached ??= createDocument({
    openapi: "3.1.0",
    info: {
      title: "API de mensajería de WhatsApp",
      version: "1.0.0",
      description:
        "Todas las rutas exigen `Authorization: Bearer <token>` (o la cookie de sesión del panel).\n" +
        "Cada operación pide un permiso: un agente lo tiene por su rol (owner, admin, supervisor, agent), un token por uno de sus alcances " +
        `(${SCOPES.join(", ")}); si no, 403 (tabla completa en docs/roles.md).\n` +
        'Errores: `{"message": "...", "errors": {"campo": ["..."]}}`; en 422 `message` es el texto exacto del primer error. 401 → `{"message":"Unauthenticated."}` ' +
        "(un token vencido, o renovado y pasado su periodo de transición, recibe un `message` que lo explica).\n" +
        "Las listas responden `{message, data, pagination: {total_items, items_per_page, current_page, total_pages}}`.",
    },
    servers: [{ url: "/" }],
    security: [{ bearer: [] }],
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
    paths,
  });
  return cached;
}
