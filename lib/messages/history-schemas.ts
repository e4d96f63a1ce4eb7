import { z } from "@/lib/http/zod-es";
import { PAGE_NOT_INTEGER, paginationSchema, perPageTooBig } from "@/lib/http/list-query";
import { routedToSchema } from "@/lib/routing/schemas";
import { dateOutOfRange, FIRST_SUPPORTED_DAY, isSupportedYear, LAST_SUPPORTED_DAY } from "@/lib/http/supported-dates";

export const HISTORY_MAX_PER_PAGE = 100;
export const HISTORY_DEFAULT_PER_PAGE = 50;

export const dateFormatMessage = (field: string) =>
  `El campo ${field} debe ser una fecha válida con el formato YYYY-MM-DD o YYYY-MM-DD HH:mm:ss.`;

/** A wall-clock date of the query string, before any time zone is applied. */
export type LocalDate = { text: string; dayOnly: boolean };

const DATE_RE = /^(\d{4})-(\d{2})-(\d{2})(?: (\d{2}):(\d{2}):(\d{2}))?$/;

/**
 * Parses `YYYY-MM-DD` or `YYYY-MM-DD HH:mm:ss`, refusing impossible dates such as 2026-02-30. Any
 * four-digit year: whether it is a supported one is the schema's question (its own text).
 */
export function parseLocalDate(raw: string): LocalDate | null {
  const m = DATE_RE.exec(raw.trim());
  if (!m) return null;
  const [y, mo, d, h = "00", mi = "00", s = "00"] = m.slice(1);
  const parts = [y, mo, d, h, mi, s].map(Number);
  // Date.UTC maps years 0–99 to 1900–1999; setUTCFullYear keeps them as written.
  const t = new Date(Date.UTC(2000, 0, 1, parts[3], parts[4], parts[5]));
  t.setUTCFullYear(parts[0], parts[1] - 1, parts[2]);
  const roundTrips =
    t.getUTCFullYear() === parts[0] &&
    t.getUTCMonth() === parts[1] - 1 &&
    t.getUTCDate() === parts[2] &&
    t.getUTCHours() === parts[3] &&
    t.getUTCMinutes() === parts[4] &&
    t.getUTCSeconds() === parts[5];
  if (!roundTrips) return null;
  return { text: `${y}-${mo}-${d} ${h}:${mi}:${s}`, dayOnly: m[4] === undefined };
}

function dateParam(field: string) {
  return z.string().transform((raw, ctx) => {
    const parsed = parseLocalDate(raw);
    if (!parsed) {
      ctx.addIssue({ code: "custom", message: dateFormatMessage(field) });
      return z.NEVER;
    }
    // The window's ends become instants in SQL and JavaScript: a year outside the supported
    // calendar (lib/http/supported-dates.ts) never gets that far.
    if (!isSupportedYear(Number(parsed.text.slice(0, 4)))) {
      ctx.addIssue({ code: "custom", message: dateOutOfRange(field) });
      return z.NEVER;
    }
    return parsed;
  });
}

const intParam = z
  .string()
  .regex(/^\s*\d{1,9}\s*$/, PAGE_NOT_INTEGER)
  .transform((s) => Number(s.trim()));

const requiredText = (field: string) =>
  z.string().trim().min(1, `El campo ${field} es obligatorio.`).max(200, `El campo ${field} no puede tener más de 200 caracteres.`);

/** Fields a caller may add to the 2.4 records with `include=` (the dashboard uses all of them). */
export const HISTORY_EXTRAS = ["update_id", "error", "routed_to", "provider_message_id"] as const;
export type HistoryExtra = (typeof HISTORY_EXTRAS)[number];

/** Query of GET /api/v1/messages/{channel}/history (spec 4.5). */
export const historyQuerySchema = z
  .object({
    customer_source: requiredText("customer_source").meta({
      description: "The customer's phone number (a leading + and spaces are ignored) or their customer_id.",
      example: "+573009876543",
    }),
    wa_number: requiredText("wa_number").meta({ description: "Company number registered to the caller's team.", example: "573001234567" }),
    from_date: dateParam("from_date").meta({
      description: `Start, inclusive: YYYY-MM-DD or YYYY-MM-DD HH:mm:ss in APP_TIMEZONE, from ${FIRST_SUPPORTED_DAY} to ${LAST_SUPPORTED_DAY}.`,
      example: "2026-11-15",
    }),
    to_date: dateParam("to_date")
      .optional()
      .meta({
        description: `End, inclusive: YYYY-MM-DD (the whole day) or YYYY-MM-DD HH:mm:ss, from ${FIRST_SUPPORTED_DAY} to ${LAST_SUPPORTED_DAY}; default now. At most HISTORY_MAX_RANGE_DAYS (90) after from_date.`,
        example: "2026-11-22",
      }),
    order: z
      .string()
      .transform((s) => s.trim().toUpperCase())
      .pipe(z.enum(["ASC", "DESC"], { error: "El campo order debe ser ASC o DESC." }))
      .optional()
      .default("DESC")
      .meta({ description: "ASC or DESC, by message id; default DESC.", example: "ASC" }),
    with_pagination: z
      .enum(["0", "1"], { error: "El campo with_pagination debe ser 0 o 1." })
      .optional()
      .default("0")
      .transform((v) => v === "1")
      .meta({ description: "1 turns pagination on; otherwise every record of the range is returned (streamed)." }),
    per_page: intParam
      .pipe(z.number().min(1, "El campo per_page debe ser al menos 1.").max(HISTORY_MAX_PER_PAGE, perPageTooBig(HISTORY_MAX_PER_PAGE)))
      .optional()
      .default(HISTORY_DEFAULT_PER_PAGE)
      .meta({ description: "1 to 100, default 50; only with with_pagination=1.", example: "50" }),
    page: intParam
      .pipe(z.number().min(1, "El campo page debe ser al menos 1."))
      .optional()
      .default(1)
      .meta({ description: "Default 1; only with with_pagination=1.", example: "1" }),
    include: z
      .string()
      .transform((s) =>
        s
          .split(",")
          .map((x) => x.trim())
          .filter(Boolean),
      )
      .pipe(z.array(z.enum(HISTORY_EXTRAS, { error: `El campo include solo admite: ${HISTORY_EXTRAS.join(", ")}.` })))
      .optional()
      .default([])
      .meta({
        description:
          "Extension beyond spec 2.4, off by default: `update_id`, `error` ({code, title, details} of a FAILED message) and/or `routed_to` ({kind: bot|campaign, id, reason}: where an inbound reply was routed, ruling 8) are added to each record.",
        example: "update_id,error,routed_to",
      }),
  })
  .meta({ id: "HistoryQuery" });
export type HistoryQuery = z.output<typeof historyQuerySchema>;

/** One history record (spec 2.4). */
export const historyRecordSchema = z
  .object({
    id: z.number().int(),
    customer_number: z.string().nullable(),
    customer_id: z.string().nullable(),
    sender: z.enum(["CUSTOMER", "AGENT", "BOT", "SYSTEM"]).nullable(),
    direction: z.enum(["INBOUND", "OUTBOUND"]).nullable(),
    type: z.string().nullable().meta({ description: "Payload type (spec 2.5); the list is open." }),
    status: z.enum(["RECEIVED", "QUEUED", "SENDED", "SENT", "DELIVERED", "READED", "FAILED"]).nullable(),
    created_at: z.string().nullable().meta({ description: "YYYY-MM-DD HH:mm:ss in APP_TIMEZONE", example: "2026-11-20 14:03:07" }),
    timestamp: z.number().int().nullable().meta({ description: "Unix time in seconds" }),
    payload: z
      .union([z.record(z.string(), z.unknown()), z.array(z.unknown())])
      .nullable()
      .meta({ description: "Content; its shape depends on `type` (spec 2.5)." }),
    agent_id: z.number().int().nullable(),
    agent_name: z.string().nullable(),
  })
  .meta({ id: "HistoryMessage" });
export type HistoryRecord = z.infer<typeof historyRecordSchema>;

/** `error` of a FAILED message: the provider's code and title. */
export const messageErrorSchema = z
  .object({ code: z.number().int().nullable(), title: z.string(), details: z.string().nullable().optional() })
  .meta({ id: "MessageError" });

/** A history record with the extras `include=` may add (absent unless asked for). */
export const historyEntrySchema = historyRecordSchema
  .extend({
    update_id: z.string().optional().meta({ description: "With include=update_id." }),
    error: messageErrorSchema.nullable().optional().meta({ description: "With include=error." }),
    routed_to: routedToSchema.nullable().optional().meta({ description: "With include=routed_to." }),
    provider_message_id: z
      .string()
      .nullable()
      .optional()
      .meta({ description: "With include=provider_message_id: the provider's id (wamid), which reactions and replies refer to." }),
  })
  .meta({ id: "HistoryEntry" });
export type HistoryEntry = z.infer<typeof historyEntrySchema>;

/** Ruling 3: the records are under `data`; `pagination` is null unless with_pagination=1. */
export const historyResponseSchema = z
  .object({
    message: z.string(),
    data: z.array(historyEntrySchema),
    pagination: paginationSchema.nullable(),
  })
  .meta({ id: "HistoryResponse" });
