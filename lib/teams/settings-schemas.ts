import { z } from "@/lib/http/zod-es";

/**
 * The team's settings an agent's screens follow (docs/features/send-form.md, docs/features/inbox.md):
 * the country a number typed without its calling code belongs to, whether a reply assigns, and
 * after how many minutes a customer's wait is shown in the alert colour.
 */
export const teamSettingsSchema = z
  .object({
    default_country: z.string().nullable().meta({
      description: "País ISO 3166-1 alfa-2 (`CO`) cuyo código se antepone en el panel a un número escrito sin él; null: se rechaza",
    }),
    default_calling_code: z.string().nullable().meta({ description: "Código de país de default_country, sin +", example: "57" }),
    reply_assigns: z.boolean().meta({ description: "Responder desde el panel asigna al agente una conversación sin asignar" }),
    waiting_alert_minutes: z.number().int().meta({
      description: "Minutos de espera de un cliente tras los que la bandeja muestra su espera en color de alerta (1–1440)",
      example: 15,
    }),
  })
  .meta({ id: "TeamSettings" });

export const teamSettingsResponse = z.object({ message: z.string(), data: teamSettingsSchema });

export type TeamSettings = z.infer<typeof teamSettingsSchema>;

/** teams.waiting_alert_minutes' default (db/schema/teams.ts). */
export const DEFAULT_WAITING_ALERT_MINUTES = 15;
export const WAITING_ALERT_INVALID = "El campo waiting_alert_minutes debe ser un número entero entre 1 y 1440.";

/** A change of settings (the admin CLI's `team:settings`): each field optional, null clears the country. */
export const updateTeamSettingsInput = z.object({
  default_country: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "El país por defecto debe ser un código ISO 3166-1 alfa-2, como CO.")
    .nullable()
    .optional(),
  reply_assigns: z.boolean().optional(),
  waiting_alert_minutes: z
    .number({ error: WAITING_ALERT_INVALID })
    .int(WAITING_ALERT_INVALID)
    .min(1, WAITING_ALERT_INVALID)
    .max(1440, WAITING_ALERT_INVALID)
    .optional(),
});
export type UpdateTeamSettingsInput = z.infer<typeof updateTeamSettingsInput>;
