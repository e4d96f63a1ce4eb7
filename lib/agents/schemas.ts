import { z } from "@/lib/http/zod-es";
import { ROLES } from "@/lib/auth/permissions";

/** The team's agents and their roles (docs/roles.md): shapes shared by the routes, the UI and the OpenAPI document. */
export const AGENT_NOT_FOUND = "Agente no encontrado.";
export const ROLE_INVALID = `El campo role debe ser uno de: ${ROLES.join(", ")}.`;
export const OWNER_ONLY = "Solo un propietario puede otorgar o quitar el rol de propietario.";
export const LAST_OWNER = "El equipo debe conservar al menos un propietario: no se puede cambiar el rol de su último propietario.";
export const LAST_OWNER_DEACTIVATE =
  "El equipo debe conservar al menos un propietario activo: no se puede desactivar a su último propietario.";
export const OWNER_ONLY_ACTIVE = "Solo un propietario puede desactivar o reactivar a un propietario.";
export const NOT_YOURSELF = "No puede desactivar su propia cuenta: pida a otro administrador o propietario que lo haga.";
export const UPDATE_EMPTY = "Debe indicar role o active.";
export const ACTIVE_INVALID = "El campo active debe ser true o false.";

export const roleSchema = z.enum(ROLES, { error: ROLE_INVALID }).meta({
  id: "Role",
  description:
    "owner: todo, incluidos otros propietarios; admin: también ajustes y agentes; supervisor: solo lectura; agent: el trabajo diario",
});

export const teamAgentSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    role: roleSchema,
    last_sign_in_at: z.string().nullable().meta({ description: "Último inicio de sesión (ISO 8601); null si nunca ha entrado" }),
    active: z.boolean().meta({ description: "Tiene ahora una sesión abierta (ni cerrada ni vencida): «en línea»" }),
    deactivated_at: z
      .string()
      .nullable()
      .meta({ description: "Desde cuándo está desactivado (ISO 8601): no puede iniciar sesión; null si está activo" }),
  })
  .meta({ id: "TeamAgent" });
export type TeamAgentDto = z.infer<typeof teamAgentSchema>;

export const listAgentsResponse = z.object({ message: z.string(), data: z.array(teamAgentSchema) }).meta({ id: "ListAgentsResponse" });
export const teamAgentResponse = z.object({ message: z.string(), data: teamAgentSchema }).meta({ id: "TeamAgentResponse" });

/**
 * `PATCH /api/v1/agents/{id}`: a new role, deactivation (`active: false`) or reactivation
 * (`active: true`), or both. Unlike the list's `active` (a session open now), here `active` says
 * whether the agent may sign in at all.
 */
export const updateAgentBody = z
  .object({
    role: roleSchema.optional(),
    active: z
      .boolean({ error: ACTIVE_INVALID })
      .optional()
      .meta({ description: "false desactiva al agente (cierra sus sesiones y desasigna sus conversaciones abiertas); true lo reactiva" }),
  })
  .refine((b) => b.role !== undefined || b.active !== undefined, { message: UPDATE_EMPTY, path: ["body"] })
  .meta({ id: "UpdateAgentRequest" });
export type UpdateAgentInput = z.output<typeof updateAgentBody>;
