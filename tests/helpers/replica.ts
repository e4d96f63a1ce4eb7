import postgres from "postgres";
import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { config } from "@/lib/config";
import { waitFor } from "./wait";

/**
 * Waits until the read replica (DATABASE_READ_URL: the scale pass, scripts/test-scale.sh) has
 * replayed everything committed on the primary so far; returns at once without one. For a test
 * that writes straight to the database, as no API client can, and then reads through an endpoint
 * the replica serves: a write made through the API is seen by the team's next reads anyway
 * (db/replica.ts), but one made beside it reaches the replica only after its lag, as in production.
 */
export async function replicaCaughtUp(): Promise<void> {
  const readUrl = config.databaseReadUrl;
  if (!readUrl) return;
  const [{ lsn }] = rowsOf<{ lsn: string }>(await (await getDb()).execute(sql`SELECT pg_current_wal_lsn()::text AS lsn`));
  const replica = postgres(readUrl, { max: 1, onnotice: () => {} });
  try {
    // The scale pass's failover test restarts the replica while other files run: a replica that
    // refuses connections or is still starting up has not caught up yet, so the wait goes on.
    await waitFor(
      async () => {
        try {
          return (await replica<{ ok: boolean }[]>`SELECT pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn AS ok`)[0]?.ok;
        } catch (err) {
          if (replicaAway(err)) return false;
          throw err;
        }
      },
      (ok) => ok === true,
      30_000,
    );
  } finally {
    await replica.end({ timeout: 5 });
  }
}

/** A connection refused or cut, or a server starting up or shutting down (SQLSTATE class 57P). */
function replicaAway(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return (
    typeof code === "string" &&
    (code === "ECONNREFUSED" || code === "ECONNRESET" || code.startsWith("CONNECTION_") || code.startsWith("57P"))
  );
}
