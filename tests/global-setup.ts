import { execFileSync } from "node:child_process";

/** The database of tests/db/messages-partitions.test.ts beside the suite's (see there). */
export function partitionsDatabaseUrl(url: string): string {
  return url.replace(/\/([^/?]+)(\?.*)?$/, (_, name: string, query = "") => `/${name}_parts${query}`);
}
const adminUrl = (url: string) => url.replace(/\/[^/?]+(\?.*)?$/, "/postgres$1");

function migrate(databaseUrl: string) {
  execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "scripts/migrate.ts"], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, DATABASE_URL: databaseUrl },
  });
}

function psql(url: string, statement: string) {
  execFileSync(
    process.execPath,
    [
      "--input-type=module",
      "-e",
      `import postgres from "postgres"; const s = postgres(process.argv[1], { max: 1, onnotice: () => {} }); await s.unsafe(process.argv[2]); await s.end();`,
      url,
      statement,
    ],
    { stdio: ["ignore", "ignore", "inherit"] },
  );
}

/**
 * Runs once before the suite. Without DATABASE_URL every test file gets its own in-memory PGlite
 * (tests/setup.ts); with it, the migrations are applied once here to that server, by the same
 * script as `npm run db:migrate` (this process does not load server modules: they need the
 * react-server condition, which the test workers have and this one does not). On a server, the
 * partitions test also gets a database of its own, made here before any test runs: migrating it
 * during the run would hold one transaction open for seconds, which holds back every event
 * log tail of the cluster (they read up to the oldest running transaction) and stalls the stream
 * tests running beside it.
 */
export default function setup() {
  process.env.APP_ENCRYPTION_KEY ??= "test-encryption-key";
  const url = process.env.DATABASE_URL;
  if (!url) return;
  migrate(url);
  const parts = partitionsDatabaseUrl(url);
  const name = new URL(parts).pathname.slice(1);
  psql(adminUrl(url), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  psql(adminUrl(url), `CREATE DATABASE "${name}"`);
  migrate(parts);
  return () => psql(adminUrl(url), `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
}
