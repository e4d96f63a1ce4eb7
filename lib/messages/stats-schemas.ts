import { z } from "@/lib/http/zod-es";
import { MESSAGE_STATUSES } from "@/db/schema/messages";

export const STATS_DATE_INVALID = (field: "from" | "to") => `El campo ${field} debe ser una fecha válida con el formato YYYY-MM-DD.`;
export const STATS_RANGE_INVALID = "El campo to debe ser una fecha igual o posterior a from.";
export const STATS_TEXT_TOO_LONG = (field: string, max: number) => `El campo ${field} no puede tener más de ${max} caracteres.`;

/** The statuses an outbound message can have (RECEIVED is inbound only). */
export const OUTBOUND_STATUSES = MESSAGE_STATUSES.filter((s) => s !== "RECEIVED") as Exclude<
  (typeof MESSAGE_STATUSES)[number],
  "RECEIVED"
>[];

/** A UTC calendar day `YYYY-MM-DD` that exists (2026-02-30 does not). */
function day(field: "from" | "to") {
  return z
    .string()
    .trim()
    .refine((s) => {
      const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
      if (!m) return false;
      const t = new Date(Date.UTC(+m[1], +m[2] - 1, +m[3]));
      return +m[1] >= 1900 && t.getUTCMonth() === +m[2] - 1 && t.getUTCDate() === +m[3];
    }, STATS_DATE_INVALID(field))
    .optional()
    .meta({ description: `Día UTC ${field === "from" ? "inicial" : "final"} (incluido), YYYY-MM-DD` });
}

/** An optional text filter; empty means "not filtered". */
const text = (field: string, max: number) =>
  z
    .string()
    .trim()
    .max(max, STATS_TEXT_TOO_LONG(field, max))
    .optional()
    .transform((s) => (s ? s : undefined));

/**
 * GET /api/v1/messages/stats: every filter optional. Days are UTC and both ends included, which
 * is what lets the answer come from the per-day rollup exactly.
 */
export const messageStatsQuery = z
  .object({
    sent_group: text("sent_group", 255).meta({ description: "sent_group exacto de los envíos" }),
    template: text("template", 512).meta({ description: "Nombre de la plantilla" }),
    wa_number: text("wa_number", 32).meta({ description: "Número de la empresa (solo dígitos, o con +)" }),
    from: day("from"),
    to: day("to"),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && q.to < q.from) ctx.addIssue({ code: "custom", path: ["to"], message: STATS_RANGE_INVALID });
  })
  .meta({ id: "MessageStatsQuery" });
export type MessageStatsQuery = z.output<typeof messageStatsQuery>;

export const failureByCodeSchema = z
  .object({
    code: z.number().int().nullable().meta({ description: "Código de error del proveedor; null si no lo informó" }),
    title: z.string(),
    count: z.number().int(),
  })
  .meta({ id: "FailureByCode" });
export type FailureByCode = z.infer<typeof failureByCodeSchema>;

export const messageStatsSchema = z
  .object({
    total: z.number().int(),
    by_status: z.object(
      Object.fromEntries(OUTBOUND_STATUSES.map((s) => [s, z.number().int()])) as Record<(typeof OUTBOUND_STATUSES)[number], z.ZodNumber>,
    ),
    failures_by_code: z.array(failureByCodeSchema),
  })
  .meta({ id: "MessageStats" });
export type MessageStats = z.infer<typeof messageStatsSchema>;

export const messageStatsResponse = z.object({ message: z.string(), data: messageStatsSchema }).meta({ id: "MessageStatsResponse" });
