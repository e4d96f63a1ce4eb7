import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";

/** The database of tests/db/messages-partitions.test.ts beside the suite's (see there). */
export function partitionsDatabaseUrl(url: string): string {
  return url.replace(/\/([^/?]+)(\?.*)?$/, (_, name: string, query = "") => `/${name}_parts${query}`);
}
/**
 * The database of tests/api/setup.test.ts beside the suite's: migrated and holding no team at all,
 * which the first-run set-up needs and the suite's shared one never is (see there).
 */
export function emptyDatabaseUrl(url: string): string {
  return url.replace(/\/([^/?]+)(\?.*)?$/, (_, name: string, query = "") => `/${name}_empty${query}`);
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
 * partitions test and the set-up test also get a database of their own, made here before any test runs: migrating it
 * during the run would hold one transaction open for seconds, which holds back every event
 * log tail of the cluster (they read up to the oldest running transaction) and stalls the stream
 * tests running beside it.
 */
export default function setup() {
  process.env.APP_ENCRYPTION_KEY ??= "test-encryption-key";
  const url = process.env.DATABASE_URL;
  if (!url) {
    process.env.PGLITE_TEMPLATE = pgliteTemplate();
    return;
  }
  migrate(url);
  // Made and migrated before any test runs, like the suite's own (migrating one mid-run would
  // hold back the event tails of the whole cluster: see above).
  const own = [partitionsDatabaseUrl(url), emptyDatabaseUrl(url)].map((u) => ({ url: u, name: new URL(u).pathname.slice(1) }));
  for (const db of own) {
    psql(adminUrl(url), `DROP DATABASE IF EXISTS "${db.name}" WITH (FORCE)`);
    psql(adminUrl(url), `CREATE DATABASE "${db.name}"`);
    migrate(db.url);
  }
  return () => {
    for (const db of own) psql(adminUrl(url), `DROP DATABASE IF EXISTS "${db.name}" WITH (FORCE)`);
  };
}

/** Every file the schema is made of: the migrations and the trigger functions applied after them. */
function schemaFiles(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
}

/**
 * On PGlite each test file has a database of its own (tests/setup.ts). Migrating each from
 * scratch took 4–14 s per file, most of the suite's set-up; instead the migrations run once here
 * into a dump that every file's database starts from (db/client.ts), and tests/setup.ts's
 * runMigrations then finds nothing to do. The dump is kept under .data, named by a hash of the
 * schema's files and the day, so a later run that day reuses it until a migration or function
 * changes.
 */
function pgliteTemplate(): string {
  // The day is part of the name too: migrations may lay out date-bound parts (partitions) from
  // the day they run, as a fresh database would on the day of the run.
  const hash = createHash("sha256").update(new Date().toISOString().slice(0, 10));
  for (const file of [...schemaFiles("db/migrations"), ...schemaFiles("db/functions")]) {
    hash.update(file).update(fs.readFileSync(file));
  }
  const dir = path.join(".data", "test-pglite-template");
  const file = path.resolve(dir, `${hash.digest("hex").slice(0, 16)}.tar`);
  if (fs.existsSync(file)) return file;
  fs.mkdirSync(dir, { recursive: true });
  // Older templates are of older schemas.
  for (const old of fs.readdirSync(dir)) fs.rmSync(path.join(dir, old), { force: true });
  execFileSync(process.execPath, ["--conditions=react-server", "--import", "tsx", "tests/helpers/pglite-template.ts", file], {
    stdio: ["ignore", "ignore", "inherit"],
    env: { ...process.env, SEED_DEMO: "0" },
  });
  return file;
}
