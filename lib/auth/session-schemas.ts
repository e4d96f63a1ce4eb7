import { z } from "@/lib/http/zod-es";

export const INVALID_CREDENTIALS = "El correo o la contraseña no son correctos.";

export const loginRequestSchema = z
  .object({
    email: z.string().trim().toLowerCase().min(1, "El campo email es obligatorio.").max(320),
    password: z.string().min(1, "El campo password es obligatorio.").max(1024),
  })
  .meta({ id: "LoginRequest" });
export type LoginRequest = z.infer<typeof loginRequestSchema>;

export const agentSchema = z
  .object({ id: z.number().int(), name: z.string(), email: z.string(), team_id: z.number().int() })
  .meta({ id: "Agent" });
export type AgentDto = z.infer<typeof agentSchema>;

export const agentResponseSchema = z.object({ message: z.string(), data: agentSchema }).meta({ id: "AgentResponse" });
