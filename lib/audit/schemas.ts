import { z } from "@/lib/http/zod-es";
import { listResponse, pageQuery } from "@/lib/http/list-query";
import { dayBefore, STATS_RANGE_INVALID, STATS_TEXT_TOO_LONG, utcDay } from "@/lib/messages/stats-schemas";
import { AUDIT_ACTIONS } from "./actions";

export const AUDIT_ACTION_INVALID = `El campo action debe ser una de: ${AUDIT_ACTIONS.join(", ")}.`;

/** GET /api/v1/audit and its CSV export: the team's trail, newest first, filters combined. */
export const auditQuery = pageQuery({ max: 100, fallback: 50 })
  .extend({
    action: z
      .string()
      .trim()
      .optional()
      .transform((s) => (s ? s : undefined))
      .refine((s) => s === undefined || (AUDIT_ACTIONS as readonly string[]).includes(s), AUDIT_ACTION_INVALID)
      .meta({ description: "Solo esta acción (`label.updated`, `sign_in.failed`…)" }),
    actor: z
      .string()
      .trim()
      .max(100, STATS_TEXT_TOO_LONG("actor", 100))
      .optional()
      .transform((s) => (s ? s : undefined))
      .meta({ description: "Parte del nombre de quien actuó (agente, token o sistema), sin distinguir mayúsculas" }),
    from: utcDay("from", "Día UTC inicial, incluido."),
    to: utcDay("to", "Día UTC final, incluido."),
    format: z
      .enum(["json", "csv"], { error: "El campo format debe ser json o csv." })
      .optional()
      .meta({ description: "`csv`: el registro filtrado entero en CSV (también con `Accept: text/csv`)" }),
  })
  .superRefine((q, ctx) => {
    if (q.from && q.to && dayBefore(q.to, q.from)) ctx.addIssue({ code: "custom", path: ["to"], message: STATS_RANGE_INVALID });
  })
  .meta({ id: "AuditQuery" });
/** The filters (the format is the route's business). */
export type AuditQuery = Omit<z.output<typeof auditQuery>, "format">;

const fieldChange = z.union([z.object({ before: z.unknown(), after: z.unknown() }), z.object({ changed: z.literal(true) })]);

export const auditEventSchema = z
  .object({
    id: z.number().int(),
    at: z.string().meta({ description: "ISO 8601, UTC" }),
    actor: z.object({
      kind: z.enum(["agent", "token", "system"]),
      id: z.number().int().nullable(),
      name: z.string(),
    }),
    ip: z.string().nullable(),
    action: z.string(),
    target: z.object({ kind: z.string(), id: z.string().nullable(), name: z.string().nullable() }).nullable(),
    changes: z
      .record(z.string(), fieldChange)
      .nullable()
      .meta({ description: "Campo → {before, after}; de un secreto solo {changed: true}, nunca su valor" }),
  })
  .meta({ id: "AuditEvent" });
export type AuditEventDto = z.infer<typeof auditEventSchema>;

export const auditListResponse = listResponse(auditEventSchema).meta({ id: "AuditList" });
