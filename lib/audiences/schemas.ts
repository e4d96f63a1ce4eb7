import { z } from "@/lib/http/zod-es";
import { LABEL_NOT_FOUND } from "@/lib/labels/schemas";

export const AUDIENCE_LABELS_REQUIRED = "La audiencia debe indicar al menos una etiqueta en labels_any o labels_all.";
export const AUDIENCE_LABEL_INVALID = "Cada etiqueta debe indicarse con un número entero positivo.";
export const AUDIENCE_LABELS_TOO_MANY = "No puede indicar más de 100 etiquetas por lista.";
export { LABEL_NOT_FOUND as AUDIENCE_LABEL_NOT_FOUND };

const MAX_IDS = 100;
const isLabelId = (v: unknown): v is number => typeof v === "number" && Number.isInteger(v) && v > 0 && v <= 2147483647;
// Checked as a whole list, so a bad id is reported on the list (`labels_any`), not on `labels_any.3`.
const labelIds = z
  .array(z.unknown(), { error: AUDIENCE_LABEL_INVALID })
  .max(MAX_IDS, AUDIENCE_LABELS_TOO_MANY)
  .refine((ids) => ids.every(isLabelId), AUDIENCE_LABEL_INVALID)
  // Repeats change nothing in the arithmetic: they are dropped, not refused.
  .transform((ids) => [...new Set(ids as number[])])
  .optional()
  .default([]);

/**
 * The audience rule used everywhere (broadcasts, the size endpoint, the wizard): contacts holding
 * at least one of `labels_any` (when given) AND every one of `labels_all` (when given), minus
 * contacts holding any of `labels_exclude`. Only contacts with a customer_number belong to an
 * audience (the others cannot be messaged). Every id must be a label of the caller's team (422).
 */
export const audienceSchema = z
  .object({ labels_any: labelIds, labels_all: labelIds, labels_exclude: labelIds })
  .superRefine((a, ctx) => {
    if (!a.labels_any.length && !a.labels_all.length)
      ctx.addIssue({ code: "custom", path: ["labels_any"], message: AUDIENCE_LABELS_REQUIRED });
  })
  .meta({ id: "Audience" });
export type Audience = z.output<typeof audienceSchema>;
export type AudienceInput = z.input<typeof audienceSchema>;

/** `1,2,3` of the query string → [1, 2, 3]; anything that is not a list of positive integers → 422. */
const idList = z
  .string()
  .trim()
  .refine((s) => !s || s.split(",").every((x) => /^\s*\d{1,10}\s*$/.test(x) && isLabelId(Number(x))), AUDIENCE_LABEL_INVALID)
  .transform((s) => (s ? [...new Set(s.split(",").map((x) => Number(x)))] : []))
  .refine((ids) => ids.length <= MAX_IDS, AUDIENCE_LABELS_TOO_MANY)
  .optional()
  .default([])
  .meta({ description: "Ids de etiquetas separados por comas, p. ej. 1,2" });

/**
 * GET /api/v1/audiences/size?any=1,2&all=3&exclude=4. Errors are keyed by the query parameter
 * (`any`, `all`, `exclude`); the same rule sent inside a body is keyed `audience.labels_any` etc.
 */
export const audienceSizeQuery = z
  .object({ any: idList, all: idList, exclude: idList })
  .superRefine((q, ctx) => {
    if (!q.any.length && !q.all.length) ctx.addIssue({ code: "custom", path: ["any"], message: AUDIENCE_LABELS_REQUIRED });
  })
  .meta({ id: "AudienceSizeQuery" });

export const audienceSizeResponse = z
  .object({
    message: z.string(),
    data: z.object({
      size: z.number().int(),
      opted_out: z.number().int().meta({
        description:
          "Cuántos de `size` se dieron de baja del marketing: una difusión de una plantilla MARKETING los deja fuera (rechazados)",
      }),
    }),
  })
  .meta({ id: "AudienceSizeResponse" });
export type AudienceSizeResponse = z.infer<typeof audienceSizeResponse>;

/** A contact of an audience, as the broadcast enqueue reads it (id order). */
export type AudienceContact = {
  id: number;
  name: string;
  customer_number: string;
  customer_id: string | null;
  marketing_opted_out: boolean;
};
