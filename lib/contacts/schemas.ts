import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";
import { labelSchema, LABEL_NOT_FOUND } from "@/lib/labels/schemas";
import { MARKETING_OPT_OUT_REASONS } from "@/db/schema/contacts";

export const CONTACT_NOT_FOUND = "Contacto no encontrado.";
export const LABEL_IDS_REQUIRED = "Debe indicar al menos una etiqueta.";
export const LABEL_IDS_REPEATED = "Las etiquetas no pueden repetirse.";
export const LABEL_IDS_TOO_MANY = "No puede indicar más de 100 etiquetas por solicitud.";
export const LABEL_ID_INVALID = "Cada etiqueta debe indicarse con un número entero positivo.";
export const CONTACT_LABEL_CAP = "El contacto no puede tener más de 5 etiquetas.";
export const LABEL_NOT_ASSIGNED = "La etiqueta no está asignada al contacto.";
export const LABEL_FILTER_TOO_MANY = "No puede filtrar por más de 20 etiquetas.";
export { MAX_LABELS_PER_CONTACT } from "@/lib/limits";
export { LABEL_NOT_FOUND };

/** The 422 of a MARKETING template sent to an opted-out customer (single send; a bulk or broadcast rejection's reason). */
export const MARKETING_OPTED_OUT =
  "El contacto se dio de baja de los mensajes de marketing: no se le pueden enviar plantillas de la categoría MARKETING.";
/**
 * The error of a queued MARKETING template message the worker did not send because its contact
 * opted out after it was queued (status FAILED; the contact's choice is checked again as the message
 * is claimed for its send). A code of our own: Meta's error codes are positive, so a negative one
 * never stands for one of theirs; 131050 is Meta's own refusal for the same reason.
 */
export const MARKETING_OPTED_OUT_AT_SEND = {
  code: -131050,
  title: "No enviado: el contacto se dio de baja de los mensajes de marketing después de que el mensaje se puso en cola.",
} as const;
export const MARKETING_OPT_OUT_INVALID = "El campo marketing_opt_out debe ser true o false.";

/** Whether, since when and why the contact opted out of MARKETING templates; null while they receive them. */
export const marketingOptOutSchema = z
  .object({
    at: z.string().meta({ description: "ISO 8601 (UTC)" }),
    reason: z.enum(MARKETING_OPT_OUT_REASONS).meta({
      description: "keyword: escribió una palabra de baja (OPT_OUT_WORDS); provider: Meta rechazó un envío con 131050; agent; import",
    }),
  })
  .nullable()
  .meta({ id: "MarketingOptOut" });

export const contactSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    customer_number: z.string().nullable(),
    customer_id: z.string().nullable(),
    labels: z.array(labelSchema),
    last_activity_at: z.string().nullable().meta({
      description: "Último mensaje (enviado o recibido) en cualquiera de sus conversaciones, ISO 8601 (UTC); null si no tiene ninguna",
    }),
    marketing_opt_out: marketingOptOutSchema,
  })
  .meta({ id: "Contact" });
export type ContactDto = z.infer<typeof contactSchema>;

/**
 * The repeatable `label_id` filter of every list that filters by label (contacts, conversations):
 * the same parsing and messages, and the services answer the same 422 for a label not of the team
 * (`requireTeamLabels`). An id beyond the `integer` column is simply no label of the team.
 */
export const labelIdFilter = z
  .array(
    z
      .string()
      .regex(/^\s*\d{1,10}\s*$/, LABEL_ID_INVALID)
      .transform((s) => Number(s.trim()))
      .pipe(z.number().int().positive(LABEL_ID_INVALID)),
  )
  .max(20, LABEL_FILTER_TOO_MANY)
  .optional()
  .meta({ description: "Repetible (`label_id=1&label_id=2`): solo lo que tiene alguna de estas etiquetas del equipo" });

export const listContactsQuery = pageQuery({ max: 100, fallback: 20 })
  .extend({
    search: z.string().trim().max(100, "El campo search no puede tener más de 100 caracteres.").optional(),
    label_id: labelIdFilter,
    format: z
      .enum(["json", "csv"], { error: "El campo format debe ser json o csv." })
      .optional()
      .meta({ description: "`csv`: todos los contactos del filtro como CSV (la importación lo lee de vuelta)" }),
  })
  .meta({ id: "ListContactsQuery" });
export const listContactsResponse = listResponse(contactSchema).meta({ id: "ListContactsResponse" });

/**
 * Body of POST and PUT /contacts/{contactId}/labels (spec 4.3, 4.4). The 100-item cap keeps a
 * huge array a 422 rather than a heavy query.
 */
export const contactLabelIdsBody = z
  .object({
    label_ids: z
      .array(z.number({ error: LABEL_ID_INVALID }).int(LABEL_ID_INVALID).positive(LABEL_ID_INVALID), {
        error: (iss) => (iss.input === undefined || iss.input === null ? LABEL_IDS_REQUIRED : undefined),
      })
      .min(1, LABEL_IDS_REQUIRED)
      .max(100, LABEL_IDS_TOO_MANY)
      .refine((ids) => new Set(ids).size === ids.length, LABEL_IDS_REPEATED),
  })
  .meta({ id: "ContactLabelIdsRequest" });
export type ContactLabelIdsInput = z.infer<typeof contactLabelIdsBody>;

export const contactLabelsResponse = z.object({ message: z.string(), data: z.array(labelSchema) }).meta({ id: "ContactLabelsResponse" });

/** PATCH /api/v1/contacts/{contactId}: an agent opts the contact out of marketing (true) or back in (false). */
export const updateContactBody = z
  .object({ marketing_opt_out: z.boolean({ error: MARKETING_OPT_OUT_INVALID }) })
  .meta({ id: "UpdateContactRequest" });
export type UpdateContactInput = z.infer<typeof updateContactBody>;
export const contactResponse = z.object({ message: z.string(), data: contactSchema }).meta({ id: "ContactResponse" });

/** Input of `createContact` (admin CLI `contact:add`, inbound messages). */
export const createContactInput = z
  .object({
    name: z.string().trim().max(200, "El campo name no puede tener más de 200 caracteres.").optional().default(""),
    customer_number: z.string().max(40, "El número de teléfono no es válido."),
    customer_id: z.string().trim().min(1).max(100).nullable().optional(),
  })
  .meta({ id: "CreateContactInput" });
export type CreateContactInput = z.input<typeof createContactInput>;
