import { z } from "./zod-es";

export const PAGE_NOT_INTEGER = "El parámetro page/per_page debe ser un número entero.";
export const perPageTooBig = (max: number) => `El campo per_page no puede ser mayor a la cantidad máxima permitida de ${max}.`;

/** A query-string integer: digits only, else the contract's page/per_page message. */
const intParam = z
  .string()
  .regex(/^\s*\d{1,9}\s*$/, PAGE_NOT_INTEGER)
  .transform((s) => Number(s.trim()));

/**
 * `page` and `per_page` of every list (spec 4.2 wording), with the list's own maximum and
 * default. Labels use max 20 / default 20 (ruling 5); other lists max 100.
 */
export function pageQuery({ max, fallback }: { max: number; fallback: number }) {
  return z.object({
    page: intParam.pipe(z.number().min(1, "El campo page debe ser al menos 1.")).optional().default(1),
    per_page: intParam
      .pipe(z.number().min(1, "El campo per_page debe ser al menos 1.").max(max, perPageTooBig(max)))
      .optional()
      .default(fallback),
  });
}

export const paginationSchema = z
  .object({
    total_items: z.number().int(),
    items_per_page: z.number().int(),
    current_page: z.number().int(),
    total_pages: z.number().int(),
  })
  .meta({ id: "Pagination" });

/** `{message, data: [...], pagination}` — the shape of every list answer. */
export function listResponse<T extends z.ZodType>(item: T) {
  return z.object({ message: z.string(), data: z.array(item), pagination: paginationSchema });
}

export const errorSchema = z
  .object({ message: z.string(), errors: z.record(z.string(), z.array(z.string())).optional() })
  .meta({ id: "Error" });
