import { afterAll, beforeAll } from "vitest";

process.env.APP_ENCRYPTION_KEY ??= "test-encryption-key";
process.env.SEED_DEMO = "0";
process.env.APP_URL ??= "http://app.test";
if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = "memory://";
// The failure budgets (lib/rate-limit/failures.ts) and sign-in delays are tested by their own files, which turn them
// on. Elsewhere every request comes from 127.0.0.1 and, on a shared Postgres, every test file
// would spend that one address's budget (the hardening suite alone sends hundreds of bad requests).
process.env.AUTH_FAILURES_PER_ADDRESS ??= "0";
process.env.SIGN_IN_MAX_DELAY_SECONDS ??= "0";
// A worker's scheduled template sync would read the fake Graph of whichever test runs a worker
// and mark that team's templates deleted; tests/api/templates-sync.test.ts turns it on itself.
process.env.TEMPLATE_SYNC_INTERVAL_MIN ??= "0";

// Files that read only the repository's text (tests/docs) need no database: booting PGlite and
// migrating it is most of their time, and on a loaded machine more than a hook's timeout.
// eslint-disable-next-line no-empty-pattern -- Vitest reads fixtures from a first parameter that must be a pattern
beforeAll(async ({}, suite) => {
  if (suite.file.filepath.includes("/tests/docs/")) return;
  const { runMigrations } = await import("@/db/migrate");
  await runMigrations();
});

afterAll(async () => {
  const { closeDb } = await import("@/db/client");
  await closeDb();
});
