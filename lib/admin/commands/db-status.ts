import { checkHealth } from "@/lib/health/service";
import type { AdminCommand } from "../types";

/**
 * `npm run admin -- db:status`: the primary and the read replica as the health route shows them,
 * with the replica probed now (its lag in seconds, or why it is not in use).
 */
export const dbStatus: AdminCommand = {
  summary: "Estado de la base de datos: primario y réplica de lectura (retraso en segundos) → {status, primary, replica}",
  options: {},
  run: async () => (await checkHealth({ probe: true })).body,
};
