import { afterAll, beforeAll } from "vitest";

process.env.APP_ENCRYPTION_KEY ??= "test-encryption-key";
process.env.SEED_DEMO = "0";
process.env.APP_URL ??= "http://app.test";
if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = "memory://";

beforeAll(async () => {
  const { runMigrations } = await import("@/db/migrate");
  await runMigrations();
});

afterAll(async () => {
  const { closeDb } = await import("@/db/client");
  await closeDb();
});
