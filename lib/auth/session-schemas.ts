import { z } from "@/lib/http/zod-es";
import { ROLES } from "./permissions";

export const INVALID_CREDENTIALS = "El correo o la contraseña no son correctos.";

/** The 401 of a session ended because its agent opened too many (the oldest is ended). */
export const sessionEndedMessage = (max: number) =>
  `Esta sesión se cerró porque su cuenta inició otra y cada agente puede tener hasta ${max} sesiones abiertas (se cierra la más antigua). Inicie sesión de nuevo.`;

/**
 * The 401 of a deactivated agent: its sessions' next request, and a sign-in with the right password
 * (a wrong one gets INVALID_CREDENTIALS, as for anyone: docs/features/agents.md).
 */
export const AGENT_DEACTIVATED =
  "Esta cuenta de agente está desactivada: no puede iniciar sesión. Pida a un administrador del equipo que la reactive.";

/**
 * A password an agent chooses (accepting an invitation): at least 8 characters, as the admin
 * CLI's agent:create asks, and at most the 1,024 sign-in reads.
 */
export const PASSWORD_MIN = 8;
export const PASSWORD_TOO_SHORT = `La contraseña debe tener al menos ${PASSWORD_MIN} caracteres.`;
export const newPasswordSchema = z
  .string({ error: "El campo password es obligatorio." })
  .min(PASSWORD_MIN, PASSWORD_TOO_SHORT)
  .max(1024, "La contraseña admite como máximo 1024 caracteres.");

export const loginRequestSchema = z
  .object({
    email: z.string().trim().toLowerCase().min(1, "El campo email es obligatorio.").max(320),
    password: z.string().min(1, "El campo password es obligatorio.").max(1024),
  })
  .meta({ id: "LoginRequest" });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const agentSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: z.string(),
    team_id: z.number().int(),
    role: z.enum(ROLES).meta({ description: "Lo que el agente puede hacer (docs/roles.md)" }),
  })
  .meta({ id: "Agent" });
export type AgentDto = z.infer<typeof agentSchema>;

export const agentResponseSchema = z.object({ message: z.string(), data: agentSchema }).meta({ id: "AgentResponse" });
