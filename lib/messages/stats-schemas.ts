import { z } from "@/lib/http/zod-es";
import { MESSAGE_STATUSES } from "@/db/schema/messages";
import { dateOutOfRange, FIRST_SUPPORTED_DAY, isSupportedInstant, LAST_SUPPORTED_DAY, utcDayMs } from "@/lib/http/supported-dates";

export const STATS_DATE_INVALID = (field: "from" | "to") => `El campo ${field} debe ser una fecha válida con el formato YYYY-MM-DD.`;
export const STATS_RANGE_INVALID = "El campo to debe ser una fecha igual o posterior a from.";
export const STATS_TEXT_TOO_LONG = (field: string, max: number) => `El campo ${field} no puede tener más de ${max} caracteres.`;

/** The statuses an outbound message can have (RECEIVED is inbound only). */
export const OUTBOUND_STATUSES = MESSAGE_STATUSES.filter((s) => s !== "RECEIVED") as Exclude<
  (typeof MESSAGE_STATUSES)[number],
  "RECEIVED"
>[];

/**
 * A UTC calendar day `YYYY-MM-DD` that exists (2026-02-30 does not) and lies in the calendar the
 * API supports (lib/http/supported-dates.ts): one that does not exist or is not written so answers
 * the format text, a real day outside the range the range text. Shared with the reports.
 */
export function utcDay(field: "from" | "to", description: string) {
  return z
    .string()
    .trim()
    .superRefine((s, ctx) => {
      const ms = utcDayMs(s);
      if (ms === null) ctx.addIssue({ code: "custom", message: STATS_DATE_INVALID(field) });
      else if (!isSupportedInstant(ms)) ctx.addIssue({ code: "custom", message: dateOutOfRange(field) });
    })
    .optional()
    .meta({ description: `${description} Entre ${FIRST_SUPPORTED_DAY} y ${LAST_SUPPORTED_DAY}.` });
}

/** Whether the days `to` comes before `from` (both valid `utcDay`s), by their instants. */
export const dayBefore = (to: string, from: string) => utcDayMs(to)! < utcDayMs(from)!;

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
    from: utcDay("from", "Día UTC inicial (incluido), YYYY-MM-DD."),
    to: utcDay("to", "Día UTC final (incluido), YYYY-MM-DD."),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && dayBefore(q.to, q.from)) ctx.addIssue({ code: "custom", path: ["to"], message: STATS_RANGE_INVALID });
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
