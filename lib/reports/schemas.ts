import { z } from "@/lib/http/zod-es";
import { daysInclusive, utcDayMs } from "@/lib/http/supported-dates";
import { dayBefore, STATS_RANGE_INVALID, STATS_TEXT_TOO_LONG, utcDay } from "@/lib/messages/stats-schemas";
import { EXACT_BELOW, MAX_RELATIVE_ERROR, STEPS_PER_DOUBLING } from "./buckets";

/** Days a report may cover at most (one year and a day, leap years included). */
export const REPORT_MAX_DAYS = 366;
export const REPORT_RANGE_TOO_LONG = `El rango de fechas no puede superar ${REPORT_MAX_DAYS} días.`;
export const REPORT_ID_INVALID = (field: string) => `El campo ${field} debe ser un id entero.`;
export const REPORT_AGENT_NOT_FOUND = "El agente indicado no existe.";

const id = (field: string, min: number) =>
  z
    .string()
    .regex(/^\s*\d{1,9}\s*$/, REPORT_ID_INVALID(field))
    .transform((s) => Number(s.trim()))
    .pipe(z.number().int().min(min, REPORT_ID_INVALID(field)))
    .optional();

/** Days from `from` to `to` (valid `YYYY-MM-DD` days), both included: by their instants, never their texts' order. */
export function daysBetween(from: string, to: string): number {
  return daysInclusive(utcDayMs(from)!, utcDayMs(to)!);
}

/**
 * GET /api/v1/reports/summary and /agents: UTC days, both ends included (what lets the answer
 * come from the per-day rollups exactly), and optional filters that combine.
 */
export const reportQuery = z
  .object({
    from: utcDay("from", "Día UTC inicial, incluido (por defecto: 29 días antes de to)."),
    to: utcDay("to", "Día UTC final, incluido (por defecto: hoy)."),
    wa_number: z
      .string()
      .trim()
      .max(32, STATS_TEXT_TOO_LONG("wa_number", 32))
      .optional()
      .transform((s) => (s ? s : undefined))
      .meta({ description: "Número de la empresa (solo dígitos, o con +); otro equipo → 422" }),
    label_id: id("label_id", 1).meta({ description: "Solo contactos que tienen hoy esta etiqueta; otro equipo → 422" }),
    agent_id: id("agent_id", 0).meta({ description: "Solo este agente (0: la API o sin asignar); otro equipo → 422" }),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && dayBefore(q.to, q.from)) ctx.addIssue({ code: "custom", path: ["to"], message: STATS_RANGE_INVALID });
    else if (q.from && q.to && daysBetween(q.from, q.to) > REPORT_MAX_DAYS)
      ctx.addIssue({ code: "custom", path: ["to"], message: REPORT_RANGE_TOO_LONG });
  })
  .meta({ id: "ReportQuery" });
export type ReportQuery = z.output<typeof reportQuery>;

/**
 * The precision of every median and p90 (lib/reports/buckets.ts), said in the API docs: they are
 * read from per-day histograms whose buckets read back as their samples' mean.
 */
export const REPORT_PRECISION =
  `Se calcula con histogramas diarios: exacto por debajo de ${EXACT_BELOW} s y siempre que cada intervalo del histograma ` +
  `tenga un solo valor distinto; si no, dentro de ±${(MAX_RELATIVE_ERROR * 100).toFixed(1).replace(".", ",")} % del valor exacto ` +
  `(${STEPS_PER_DOUBLING} intervalos por cada duplicación del tiempo, cada uno leído como la media de sus muestras). ` +
  "Interpolado entre las dos muestras más cercanas, como percentile_cont.";

const seconds = (what: string) =>
  z
    .number()
    .nullable()
    .meta({ description: `${what}, en segundos; null sin muestras. ${REPORT_PRECISION}` });

/** The figures of one day, one agent or the whole range. */
export const reportFiguresSchema = z
  .object({
    first_responses: z.number().int().meta({ description: "Primeras respuestas (de un agente o la API a un cliente que esperaba)" }),
    first_response_median: seconds("Mediana del tiempo de primera respuesta"),
    first_response_p90: seconds("Percentil 90 del tiempo de primera respuesta"),
    conversations_opened: z.number().int(),
    conversations_resolved: z.number().int(),
    resolution_median: seconds("Mediana del tiempo de resolución (desde la apertura)"),
    resolution_p90: seconds("Percentil 90 del tiempo de resolución"),
    messages_in: z.number().int(),
    messages_out: z.number().int(),
  })
  .meta({ id: "ReportFigures" });
export type ReportFigures = z.infer<typeof reportFiguresSchema>;

export const reportDaySchema = reportFiguresSchema
  .extend({ day: z.string().meta({ description: "Día UTC, YYYY-MM-DD" }) })
  .meta({ id: "ReportDay" });
export type ReportDay = z.infer<typeof reportDaySchema>;

export const reportSummarySchema = z
  .object({ from: z.string(), to: z.string(), totals: reportFiguresSchema, days: z.array(reportDaySchema) })
  .meta({ id: "ReportSummary" });
export type ReportSummary = z.infer<typeof reportSummarySchema>;

export const reportAgentSchema = reportFiguresSchema
  .extend({
    agent_id: z.number().int().meta({ description: "0: la API o sin asignar" }),
    agent_name: z.string().nullable(),
  })
  .meta({ id: "ReportAgent" });
export type ReportAgent = z.infer<typeof reportAgentSchema>;

export const reportSummaryResponse = z.object({ message: z.string(), data: reportSummarySchema }).meta({ id: "ReportSummaryResponse" });
export const reportAgentsResponse = z
  .object({ message: z.string(), data: z.object({ from: z.string(), to: z.string(), agents: z.array(reportAgentSchema) }) })
  .meta({ id: "ReportAgentsResponse" });
