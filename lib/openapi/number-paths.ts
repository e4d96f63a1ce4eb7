import { z } from "@/lib/http/zod-es";
import { errors, jsonContent, ok, type Operation } from "./helpers";
import {
  createNumberBody,
  listNumberSettingsResponse,
  numberCheckResponse,
  numberSettingsResponse,
  updateNumberBody,
} from "@/lib/numbers/settings-schemas";
import { setupBody, setupResponse, setupStatusResponse } from "@/lib/setup/schemas";

/** The team's numbers as settings and the first-run set-up (docs/features/numbers.md, setup.md), spread into the document's paths. */
const numberPath = z.object({ numberId: z.string().meta({ description: "Id entero del número (el `id` de GET /api/v1/numbers)" }) });
const WHO = "Propietarios y administradores; con un token, el alcance `webhooks_admin`.";

export const numberPaths: Record<string, Partial<Record<"get" | "post" | "put" | "patch" | "delete", Operation>>> = {
  "/api/v1/numbers": {
    get: {
      tags: ["Números"],
      summary: "Los números del equipo como ajustes: ids de Meta, estado, salud, credenciales guardadas y el webhook",
      description:
        `${WHO} Cada número con su nombre, dígitos, \`phone_number_id\`, \`waba_id\`, calidad y límite de mensajes (de Meta), si está desactivado, ` +
        "qué credenciales tiene (`true`/`false`: sus valores nunca se devuelven) y lo que se pega en el panel de la app de Meta: " +
        "`webhook.callback_url` (`APP_URL` + `/api/v1/webhooks/whatsapp`, la misma para todos) y `webhook.verify_token` (el del número, " +
        "si no `WHATSAPP_VERIFY_TOKEN`). El catálogo de envío sigue siendo `GET /api/v1/wa_numbers`.",
      responses: { ...ok(listNumberSettingsResponse), ...errors() },
    },
    post: {
      tags: ["Números"],
      summary: "Registrar un número de la API de WhatsApp Cloud (Meta)",
      description:
        `${WHO} Lo mismo que \`npm run admin -- number:add --provider cloud_api\`: las credenciales se guardan cifradas (AES-256-GCM) y no se devuelven. ` +
        "`app_secret` puede omitirse solo si el servidor tiene `WHATSAPP_APP_SECRET`; sin `verify_token` se genera uno. " +
        "Número o `phone_number_id` ya registrados (en cualquier equipo) → 422. Auditoría: `number.added` (de las credenciales, solo que se pusieron).",
      requestBody: { content: jsonContent(createNumberBody) },
      responses: { "201": { description: "Registrado", content: jsonContent(numberSettingsResponse) }, ...errors("400", "415", "422") },
    },
  },
  "/api/v1/numbers/sandbox": {
    post: {
      tags: ["Números"],
      summary: "Crear el número de pruebas del equipo",
      description:
        `${WHO} Como el de la demo: sin Meta ni credenciales, los envíos recorren enviado → entregado → leído en el propio servicio y ` +
        "`POST /api/v1/sandbox/inbound` simula a un cliente. Sus dígitos son `1555` y el id del equipo (el rango de pruebas de Meta). Uno por equipo: otro → 409.",
      responses: { "201": { description: "Creado", content: jsonContent(numberSettingsResponse) }, ...errors("409") },
    },
  },
  "/api/v1/numbers/{numberId}": {
    patch: {
      tags: ["Números"],
      summary: "Cambiar el nombre, el ritmo, el estado o las credenciales de un número",
      description:
        `${WHO} \`disabled: true\` desactiva el número: sus envíos (plantillas, masivos, difusiones, respuestas) se rechazan con 422 en \`wa_number\`; ` +
        "los mensajes entrantes y los estados de Meta se siguen recibiendo, y lo ya encolado sigue su curso. `false` lo reactiva. " +
        "Credenciales nuevas (`access_token`, `app_secret`, `verify_token`): reemplazan solo las indicadas; nunca se devuelven. " +
        "Auditoría: `number.disabled` / `number.enabled`, y `number.updated` con los campos que cambiaron (de un secreto, solo que cambió).",
      requestParams: { path: numberPath },
      requestBody: { content: jsonContent(updateNumberBody) },
      responses: { ...ok(numberSettingsResponse), ...errors("400", "404", "415", "422") },
    },
  },
  "/api/v1/numbers/{numberId}/verify": {
    post: {
      tags: ["Números"],
      summary: "Verificar el número con Meta (nombre verificado, calidad, límite de mensajes)",
      description:
        `${WHO} Llama a \`GET /{phone_number_id}?fields=display_phone_number,verified_name,quality_rating,messaging_limit_tier\` de la API Graph ` +
        "con el token del número y guarda el nombre verificado, la calidad y el límite. Si Meta lo rechaza (p. ej. token inválido, código 190), " +
        "la respuesta es 200 con `verified: false`, el error de Meta tal cual en `error` (`code`, `subcode`, `type`, `message`, `fbtrace_id`) y " +
        "`message` lo dice en palabras; también si no se pudo llegar a Meta (`kind: network` o `timeout`). El número de pruebas responde por sí mismo. " +
        "Auditoría: `number.verified`.",
      requestParams: { path: numberPath },
      responses: { ...ok(numberCheckResponse), ...errors("404", "422") },
    },
  },
  "/api/v1/setup": {
    get: {
      tags: ["Configuración inicial"],
      summary: "Si falta la configuración inicial (ningún equipo todavía)",
      description: "Pública. La pregunta la página de inicio de sesión: con `needed: true` lleva a `/setup`.",
      security: [],
      responses: { ...ok(setupStatusResponse) },
    },
    post: {
      tags: ["Configuración inicial"],
      summary: "Crear el primer equipo y su propietario, e iniciar su sesión (cookie)",
      description:
        "Pública, y solo mientras no exista ningún equipo (una base vacía, `SEED_DEMO=0`): después, 409 a cualquier solicitud. " +
        "Dos a la vez: una crea el equipo, la otra recibe 409. La contraseña se guarda como hash (scrypt). Auditoría: `team.created` y `agent.created`.",
      security: [],
      requestBody: { content: jsonContent(setupBody) },
      responses: {
        "201": { description: "Creado; sesión iniciada", content: jsonContent(setupResponse) },
        ...errors("400", "409", "415", "422"),
      },
    },
  },
};
