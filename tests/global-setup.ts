/**
 * Runs once before the suite. Without DATABASE_URL every test file gets its own in-memory PGlite
 * (tests/setup.ts); with it, the migrations are applied once here to that server.
 */
export default async function setup() {
  process.env.APP_ENCRYPTION_KEY ??= "test-encryption-key";
  if (!process.env.DATABASE_URL) return;
  const { runMigrations } = await import("../db/migrate");
  const { closeDb } = await import("../db/client");
  await runMigrations();
  await closeDb();
}
