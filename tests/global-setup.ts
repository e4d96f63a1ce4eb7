import { execFileSync } from "node:child_process";

/**
 * Runs once before the suite. Without DATABASE_URL every test file gets its own in-memory PGlite
 * (tests/setup.ts); with it, the migrations are applied once here to that server, by the same
 * script as `npm run db:migrate` (this process does not load server modules: they need the
 * react-server condition, which the test workers have and this one does not).
 */
export default function setup() {
  process.env.APP_ENCRYPTION_KEY ??= "test-encryption-key";
  if (!process.env.DATABASE_URL) return;
  execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/migrate.ts"], {
    stdio: ["ignore", "ignore", "inherit"],
  });
}
