import { z } from "@/lib/http/zod-es";

/** GET /api/v1/health: the process and its databases, nothing about any team. */
export const healthResponse = z.object({
  status: z.enum(["ok", "degraded", "down"]).meta({
    description:
      "ok: todo responde; degraded: la réplica de lectura no está en uso (se lee del primario); down: el primario no responde (503)",
  }),
  database: z.enum(["postgres", "pglite"]),
  primary: z.enum(["up", "down"]),
  replica: z
    .object({
      configured: z.boolean(),
      in_use: z.boolean().optional().meta({ description: "Si las lecturas van a la réplica ahora" }),
      state: z.enum(["up", "lagging", "down", "unknown"]).optional(),
      lag_s: z.number().nullable().optional().meta({ description: "Segundos de retraso respecto del primario en la última comprobación" }),
      max_lag_s: z.number().optional().meta({ description: "READ_REPLICA_MAX_LAG_S" }),
      checked_at: z.string().nullable().optional(),
    })
    .meta({ description: "La réplica de lectura (DATABASE_READ_URL); {configured: false} sin ella" }),
});
export type HealthDto = z.infer<typeof healthResponse>;
