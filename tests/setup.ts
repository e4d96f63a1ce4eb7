import { afterAll, beforeAll } from "vitest";

process.env.APP_ENCRYPTION_KEY ??= "test-encryption-key";
process.env.SEED_DEMO = "0";
process.env.APP_URL ??= "http://app.test";
if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = "memory://";
// The failure budgets (lib/rate-limit/failures.ts) are tested by their own files, which turn them
// on. Elsewhere every request comes from 127.0.0.1 and, on a shared Postgres, every test file
// would spend that one address's budget (the hardening suite alone sends hundreds of bad requests).
process.env.AUTH_FAILURES_PER_ADDRESS ??= "0";
process.env.SIGN_IN_FAILURES_PER_ACCOUNT ??= "0";

beforeAll(async () => {
  const { runMigrations } = await import("@/db/migrate");
  await runMigrations();
});

afterAll(async () => {
  const { closeDb } = await import("@/db/client");
  await closeDb();
});
