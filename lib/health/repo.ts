import "server-only";
import { sql } from "drizzle-orm";
import { getHandle, replicaStatus } from "@/db/client";

export { replicaStatus };

/** Which database this process uses and whether its primary answers a trivial query. */
export async function pingPrimary(): Promise<{ kind: "postgres" | "pglite"; up: boolean }> {
  let kind: "postgres" | "pglite" = "postgres";
  try {
    const h = await getHandle();
    kind = h.kind;
    await h.db.execute(sql`SELECT 1`);
    return { kind, up: true };
  } catch {
    return { kind, up: false };
  }
}
