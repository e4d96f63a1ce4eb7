import "server-only";
import { getHandle, replicaStatus } from "@/db/client";
import { selectOne } from "./repo";
import type { HealthDto } from "./schemas";

/**
 * The health of this process's databases, for load balancers and operators: 503 only when the
 * primary does not answer (nothing works then); a replica that is down or lagging only makes it
 * "degraded", since reads then go to the primary and every request is still answered. `probe`:
 * probe the replica now (the admin CLI, a fresh process) instead of reporting the last probe.
 */
export async function checkHealth({ probe = false } = {}): Promise<{ status: number; body: HealthDto }> {
  const primary = await pingPrimary();
  const replica = await replicaStatus({ probe });
  const degraded = replica.configured && !replica.in_use;
  const status = !primary.up ? "down" : degraded ? "degraded" : "ok";
  return {
    status: primary.up ? 200 : 503,
    body: { status, database: primary.kind, primary: primary.up ? "up" : "down", replica },
  };
}

/** Which database this process uses and whether its primary answers a trivial query. */
async function pingPrimary(): Promise<{ kind: "postgres" | "pglite"; up: boolean }> {
  let kind: "postgres" | "pglite" = "postgres";
  try {
    const h = await getHandle();
    kind = h.kind;
    await selectOne(h.db);
    return { kind, up: true };
  } catch {
    return { kind, up: false };
  }
}
