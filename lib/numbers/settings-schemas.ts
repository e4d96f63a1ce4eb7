import { z } from "@/lib/http/zod-es";
import { isValidNumber, sanitizeNumber } from "@/lib/phone";

/**
 * The team's numbers as settings (docs/features/numbers.md): the shapes of /api/v1/numbers, shared
 * by the routes, the settings page's forms and the OpenAPI document. Credentials go in and are
 * never answered back: only whether each one is set.
 */
export const NUMBER_NOT_FOUND = "Número no encontrado.";
export const NUMBER_UPDATE_EMPTY = "Debe indicar al menos un campo a modificar.";
export const PHONE_NUMBER_FORMAT =
  "El campo phone_number debe ser el número en formato internacional: el código de país y el número, de 8 a 15 dígitos (p. ej. +573001234567).";
export const numberTaken = (digits: string) => `El número ${digits} ya está registrado.`;
export const PHONE_NUMBER_ID_TAKEN = "Ese phone_number_id ya pertenece a otro número registrado.";
export const APP_SECRET_NEEDED =
  "El campo app_secret es obligatorio: sin él no se puede comprobar la firma de los webhooks de Meta (o defina WHATSAPP_APP_SECRET en el servidor).";
export const SANDBOX_NO_CREDENTIALS = "El número de pruebas no usa credenciales de Meta.";
export const NO_ACCESS_TOKEN = "El número no tiene token de acceso: añádalo (Editar) antes de verificarlo.";
export const SANDBOX_EXISTS = "El equipo ya tiene un número de pruebas.";
export const numberDisabled = (digits: string) =>
  `El número ${digits} está desactivado: actívelo en Ajustes → Números para enviar desde él.`;

/** The limits the page's form says as the agent types. */
export const NUMBER_LIMITS = { displayName: 100, metaId: 30, secret: 4096, verifyToken: 200, maxMps: 1000 };

const displayName = z
  .string()
  .trim()
  .min(1, "El campo display_name es obligatorio.")
  .max(NUMBER_LIMITS.displayName, `El campo display_name no puede tener más de ${NUMBER_LIMITS.displayName} caracteres.`)
  .meta({ description: "El nombre con el que el equipo reconoce el número en el panel", example: "Ventas Bogotá" });

const phoneNumber = z
  .string()
  .trim()
  .min(1, "El campo phone_number es obligatorio.")
  .transform(sanitizeNumber)
  .refine(isValidNumber, PHONE_NUMBER_FORMAT)
  .meta({ description: "El número en E.164 (con o sin +, espacios y guiones): se guarda en dígitos", example: "+573001234567" });

/** Meta's ids are digits (the phone number's and the business account's, as WhatsApp Manager shows them). */
const metaId = (field: string, description: string, example: string) =>
  z
    .string()
    .trim()
    .min(1, `El campo ${field} es obligatorio.`)
    .max(NUMBER_LIMITS.metaId, `El campo ${field} no puede tener más de ${NUMBER_LIMITS.metaId} caracteres.`)
    .regex(/^\d+$/, `El campo ${field} debe ser el identificador numérico que muestra Meta (solo dígitos).`)
    .meta({ description, example });

const secret = (field: string, description: string, max = NUMBER_LIMITS.secret) =>
  z
    .string()
    .trim()
    .min(1, `El campo ${field} es obligatorio.`)
    .max(max, `El campo ${field} no puede tener más de ${max} caracteres.`)
    .meta({ description, writeOnly: true });

const messagesPerSecond = z
  .number()
  .int("El campo messages_per_second debe ser un número entero.")
  .min(1, "El campo messages_per_second debe ser al menos 1.")
  .max(NUMBER_LIMITS.maxMps, `El campo messages_per_second no puede ser mayor a ${NUMBER_LIMITS.maxMps}.`)
  .meta({ description: "Envíos por segundo desde este número, entre todos los workers (por defecto 80, el de Meta)", example: 80 });

const credentialFields = {
  access_token: secret("access_token", "Token de acceso permanente de un usuario del sistema con whatsapp_business_messaging"),
  app_secret: secret("app_secret", "Clave secreta de la app de Meta: firma los webhooks"),
  verify_token: secret(
    "verify_token",
    "Texto que Meta repite al suscribir el webhook; si se omite al crear, se genera uno",
    NUMBER_LIMITS.verifyToken,
  ),
};

export const createNumberBody = z
  .object({
    display_name: displayName,
    phone_number: phoneNumber,
    phone_number_id: metaId("phone_number_id", "Identificador del número de teléfono (WhatsApp Manager → API Setup)", "106540352242922"),
    waba_id: metaId("waba_id", "Identificador de la cuenta de WhatsApp Business (WABA)", "102290129340398"),
    access_token: credentialFields.access_token,
    app_secret: credentialFields.app_secret.optional(),
    verify_token: credentialFields.verify_token.optional(),
    messages_per_second: messagesPerSecond.optional(),
  })
  .meta({ id: "CreateNumberRequest" });
export type CreateNumberInput = z.output<typeof createNumberBody>;

export const updateNumberBody = z
  .object({
    display_name: displayName.optional(),
    messages_per_second: messagesPerSecond.optional(),
    disabled: z.boolean().optional().meta({ description: "true: se rechazan los envíos desde el número (422); false: vuelve a enviar" }),
    access_token: credentialFields.access_token.optional(),
    app_secret: credentialFields.app_secret.optional(),
    verify_token: credentialFields.verify_token.optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: NUMBER_UPDATE_EMPTY })
  .meta({ id: "UpdateNumberRequest" });
export type UpdateNumberInput = z.output<typeof updateNumberBody>;

export const numberSettingsSchema = z
  .object({
    id: z.number().int(),
    number: z.string().meta({ description: "El número en dígitos, sin +" }),
    display_name: z.string(),
    provider: z.enum(["sandbox", "cloud_api"]),
    sandbox: z.boolean().meta({ description: "El número de pruebas: no habla con Meta, simula las entregas" }),
    phone_number_id: z.string().nullable(),
    waba_id: z.string().nullable(),
    messages_per_second: z.number().int(),
    disabled: z.boolean(),
    disabled_at: z.string().nullable().meta({ description: "ISO 8601 (UTC): cuándo se desactivó; null si está activo" }),
    quality_rating: z.string().nullable().meta({ description: "GREEN, YELLOW, RED, UNKNOWN; null hasta que Meta informe" }),
    messaging_limit_tier: z.string().nullable().meta({ description: "TIER_250, TIER_1K, TIER_10K…; null hasta que Meta informe" }),
    health_updated_at: z.string().nullable(),
    verified_name: z
      .string()
      .nullable()
      .meta({ description: "El nombre verificado que Meta muestra a los clientes (última verificación)" }),
    verified_at: z.string().nullable().meta({ description: "ISO 8601 (UTC): la última verificación correcta" }),
    credentials: z
      .object({ access_token: z.boolean(), app_secret: z.boolean(), verify_token: z.boolean() })
      .meta({ description: "Qué credenciales tiene guardadas (cifradas); sus valores nunca se devuelven" }),
    webhook: z
      .object({
        callback_url: z.string().meta({ description: "La URL de devolución de llamada para el panel de la app de Meta" }),
        verify_token: z.string().nullable().meta({
          description: "El token de verificación para el panel de Meta: el del número, si no WHATSAPP_VERIFY_TOKEN; null si no hay ninguno",
        }),
        verify_token_source: z.enum(["number", "setting"]).nullable(),
      })
      .meta({ description: "Lo que se pega en la configuración de webhooks de la app de Meta (campo «messages»)" }),
    created_at: z.string(),
  })
  .meta({ id: "NumberSettings" });
export type NumberSettingsDto = z.infer<typeof numberSettingsSchema>;

export const listNumberSettingsResponse = z
  .object({ message: z.string(), data: z.array(numberSettingsSchema) })
  .meta({ id: "ListNumberSettingsResponse" });
export const numberSettingsResponse = z.object({ message: z.string(), data: numberSettingsSchema }).meta({ id: "NumberSettingsResponse" });

export const numberCheckErrorSchema = z
  .object({
    kind: z.enum(["meta", "network", "timeout", "invalid"]).meta({
      description: "meta: Meta respondió con un error; network/timeout: no se llegó a Meta; invalid: Meta respondió algo inesperado",
    }),
    code: z.number().int().nullable(),
    subcode: z.number().int().nullable(),
    type: z.string().nullable(),
    message: z.string().meta({ description: "El texto de Meta tal cual (o el motivo de no llegar)" }),
    fbtrace_id: z.string().nullable().meta({ description: "Lo que pide el soporte de Meta" }),
  })
  .meta({ id: "NumberCheckError" });
export type NumberCheckErrorDto = z.infer<typeof numberCheckErrorSchema>;

export const numberCheckSchema = z
  .object({
    verified: z.boolean(),
    sandbox: z.boolean().meta({ description: "true: respondió el número de pruebas, sin llamar a Meta" }),
    display_phone_number: z.string().nullable(),
    verified_name: z.string().nullable(),
    quality_rating: z.string().nullable(),
    messaging_limit_tier: z.string().nullable(),
    error: numberCheckErrorSchema.nullable(),
    number: numberSettingsSchema,
  })
  .meta({ id: "NumberCheck" });
export type NumberCheckDto = z.infer<typeof numberCheckSchema>;
export const numberCheckResponse = z.object({ message: z.string(), data: numberCheckSchema }).meta({ id: "NumberCheckResponse" });
