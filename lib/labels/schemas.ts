import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";

export const LABEL_NOT_FOUND = "Etiqueta no encontrada.";
export const LABEL_TITLE_TAKEN = "Ya existe una etiqueta con ese título.";
export const LABEL_UPDATE_EMPTY = "Debe indicar al menos un campo a modificar.";

/** Label record, exactly spec 2.2. */
export const labelSchema = z
  .object({
    id: z.number().int(),
    title: z.string(),
    description: z.string().nullable(),
    bg_color: z.string(),
    text_color: z.string(),
  })
  .meta({ id: "Label" });
export type LabelDto = z.infer<typeof labelSchema>;

/** Ruling 5: the label list defaults to 20 per page, and 20 is also the contract's maximum. */
export const listLabelsQuery = pageQuery({ max: 20, fallback: 20 }).meta({ id: "ListLabelsQuery" });
/** A label as the list (4.2) shows it: the 2.2 record plus how many of the team's contacts hold it. */
export const labelListItemSchema = labelSchema
  .extend({ contacts_count: z.number().int().meta({ description: "Contactos del equipo que tienen esta etiqueta" }) })
  .meta({ id: "LabelListItem" });
export type LabelListItemDto = z.infer<typeof labelListItemSchema>;
export const listLabelsResponse = listResponse(labelListItemSchema).meta({ id: "ListLabelsResponse" });

const hexColor = (field: string) =>
  z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, `El campo ${field} debe ser un color hexadecimal con el formato #rrggbb.`)
    .transform((s) => s.toLowerCase());

/** A label's title as every write takes it (the labels API, and the titles an import creates). */
export const labelTitle = z
  .string()
  .trim()
  .min(1, "El campo title no puede estar vacío.")
  .max(100, "El campo title no puede tener más de 100 caracteres.");

// An empty description means "no description", stored as null like an absent one.
const description = z
  .string()
  .trim()
  .max(500, "El campo description no puede tener más de 500 caracteres.")
  .nullable()
  .transform((s) => (s ? s : null));

export const createLabelBody = z
  .object({
    title: labelTitle,
    description: description.optional(),
    bg_color: hexColor("bg_color"),
    text_color: hexColor("text_color"),
  })
  .meta({ id: "CreateLabelRequest" });
export type CreateLabelInput = z.infer<typeof createLabelBody>;

export const updateLabelBody = z
  .object({
    title: labelTitle.optional(),
    description: description.optional(),
    bg_color: hexColor("bg_color").optional(),
    text_color: hexColor("text_color").optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: LABEL_UPDATE_EMPTY })
  .meta({ id: "UpdateLabelRequest" });
export type UpdateLabelInput = z.infer<typeof updateLabelBody>;

/** Colours of a label created without a choice (an import's new labels): the dashboard form's default. */
export const DEFAULT_LABEL_COLORS = { bg_color: "#dcfce7", text_color: "#14532d" } as const;

export const labelResponse = z.object({ message: z.string(), data: labelSchema }).meta({ id: "LabelResponse" });
export const deleteLabelResponse = z.object({ message: z.string() }).meta({ id: "DeleteLabelResponse" });
