import "server-only";
import path from "node:path";
import { getHandle } from "./client";
import { config } from "@/lib/config";
import { applyFunctions } from "./functions";
import { ADVISORY_LOCKS } from "./advisory-locks";

const migrationsFolder = path.join(/*turbopackIgnore: true*/ process.cwd(), "db", "migrations");

/**
 * Applies db/migrations (drizzle-kit SQL) to the configured database, then the current trigger
 * functions of db/functions (db/functions.ts). On a Postgres server an advisory lock on a
 * dedicated connection keeps several starting replicas from racing. That lock belongs to a
 * session, which a transaction pooler does not keep (and the migration's DDL is no business of a
 * pooler either): it runs on DATABASE_DIRECT_URL when set.
 */
export async function runMigrations(): Promise<void> {
  const handle = await getHandle();
  if (handle.kind === "pglite") {
    const { migrate } = await import("drizzle-orm/pglite/migrator");
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    await migrate(handle.db as any, { migrationsFolder });
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const client = (handle.db as any).$client as import("@electric-sql/pglite").PGlite;
    await applyFunctions({
      query: async (text) => (await client.query<{ sha256: string }>(text)).rows,
      exec: (script) => client.exec(script),
    });
    return;
  }
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { migrate } = await import("drizzle-orm/postgres-js/migrator");
  const sql = postgres(config.databaseDirectUrl ?? config.databaseUrl!, { max: 1, onnotice: () => {} });
  try {
    await sql`select pg_advisory_lock(${ADVISORY_LOCKS.migrations})`;
    await migrate(drizzle(sql), { migrationsFolder });
    await applyFunctions({ query: (text) => sql.unsafe<{ sha256: string }[]>(text), exec: (script) => sql.unsafe(script).simple() });
    await sql`select pg_advisory_unlock(${ADVISORY_LOCKS.migrations})`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
