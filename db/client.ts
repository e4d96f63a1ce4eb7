import "server-only";
import fs from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import type { Sql } from "postgres";
import { config } from "@/lib/config";
import { oneQueryPerConnection } from "./pooler-gate";
import { DbCircuit, guardWithCircuit } from "./circuit";
import { ReplicaMonitor, replicaReadFailure, type ReplicaStatus } from "./replica";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * Subscribes to a NOTIFY channel. `onListen` runs each time the subscription is (re)established:
 * notifications sent while a connection was down are lost, so the caller catches up there.
 */
export type Listen = (channel: string, onNotify: (payload: string) => void, onListen?: () => void) => Promise<() => Promise<void>>;

type Handle = {
  /** The primary: every write, and every read that must see what was just written. */
  db: Db;
  kind: "postgres" | "pglite";
  listen: Listen;
  /** The read replica (DATABASE_READ_URL) and its monitor, when one is configured. */
  replica?: { db: Db; monitor: ReplicaMonitor };
  close: () => Promise<void>;
};

// Dev reloads modules; the connection must survive them, so it lives on globalThis.
const g = globalThis as unknown as { __waDb?: Promise<Handle> };

/** The database of this process, opened lazily on first use (PGlite unless DATABASE_URL is set). */
export function getHandle(): Promise<Handle> {
  g.__waDb ??= open().catch((err) => {
    g.__waDb = undefined;
    throw err;
  });
  return g.__waDb;
}

/** The primary: writes, and reads that must see this request's own writes. */
export async function getDb(): Promise<Db> {
  return (await getHandle()).db;
}

/**
 * Runs the team's read `fn` on the read replica when one is configured and current (db/replica.ts),
 * else on the primary. Only for reads that may be a moment behind the primary (lists, history,
 * stats, exports), never for a read that must see a write this request made; the team's own
 * earlier writes are seen (`noteTeamWrite`). A replica that fails the read for want of a connection is marked down and the read runs
 * once more on the primary, so a replica outage costs no request an error.
 */
export async function withReadDb<T>(teamId: number, fn: (db: Db) => Promise<T>): Promise<T> {
  const h = await getHandle();
  const replica = h.replica;
  if (!replica?.monitor.usableFor(teamId)) return fn(h.db);
  readCounts.replica++;
  try {
    return await fn(replica.db);
  } catch (err) {
    const failure = replicaReadFailure(err);
    if (!failure) throw err;
    if (failure === "down") replica.monitor.markDown();
    readCounts.fallback++;
    return fn(h.db);
  }
}

/**
 * A write for this team committed in this process: its reads stay on the primary until the replica
 * has replayed it (read-your-writes; db/replica.ts). Called by lib/http `withAuth` after every
 * request that is not a GET or HEAD.
 */
export function noteTeamWrite(teamId: number) {
  void getHandle()
    .then((h) => h.replica?.monitor.noteWrite(teamId))
    .catch(() => {});
}

/** Reads sent to the replica by `withReadDb` in this process, and those retried on the primary (tests). */
export const readCounts = { replica: 0, fallback: 0 };

/**
 * The replica's state for the health route and the admin CLI; `{configured: false}` without one.
 * `probe`: ask the replica now rather than report the background probe's last answer.
 */
export async function replicaStatus({ probe = false } = {}): Promise<ReplicaStatus | { configured: false }> {
  const replica = (await getHandle()).replica;
  if (!replica) return { configured: false };
  return probe ? replica.monitor.probe() : replica.monitor.status();
}

/**
 * Runs `fn` in one transaction of this process's database: the one way a transaction is opened,
 * by a service (a repo function takes the `tx` as its first parameter, its `db`).
 */
export async function transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
  const db = await getDb();
  return db.transaction((tx) => fn(tx));
}

export async function closeDb(): Promise<void> {
  const h = g.__waDb;
  g.__waDb = undefined;
  if (h) await (await h).close();
}

// Which handles send named prepared statements (a direct connection); the others send unnamed ones.
// On globalThis with the handle itself: a module loaded twice (dev reloads, another bundle of the
// server) must see the flag of the handle it shares.
const namedOn = ((globalThis as unknown as { __waNamedStatements?: WeakMap<Db, boolean> }).__waNamedStatements ??= new WeakMap<
  Db,
  boolean
>());

/**
 * Whether `db` sends its prepared queries as named statements, which PostgreSQL may plan once per
 * connection (a generic plan), rather than unnamed ones planned at every execution (behind a
 * transaction pooler, and PGlite). lib/messages/history-repo.ts writes its id bounds for either.
 */
export function preparesNamed(db: Db): boolean {
  return namedOn.get(db) ?? false;
}

// Each handle's twin for the history's statements (see genericPlansOf); on globalThis as namedOn is.
const genericTwins = ((globalThis as unknown as { __waGenericTwins?: WeakMap<Db, Db> }).__waGenericTwins ??= new WeakMap<Db, Db>());
const FORCE_GENERIC = { plan_cache_mode: "force_generic_plan" };
/** The history twin's connections per process: half the pool's, opened lazily like the pool's. */
const historyPoolSize = () => Math.max(1, Math.ceil(config.databasePoolSize / 2));

/**
 * Where the history's page, count and batch statements run for `db`: on a direct connection, a
 * twin pool to the same server whose sessions have plan_cache_mode = force_generic_plan; else
 * (PGlite, a transaction pooler: unnamed statements, planned and pruned with their values every
 * time) `db` itself. Why: with plan_cache_mode auto, PostgreSQL gives up a named statement's
 * generic plan when it is estimated dearer than a custom one. The history page's generic plan holds
 * every month partition (pruned only when it starts, which costing ignores), so on the 50 M set's 52
 * partitions it was estimated at twice a custom plan, and every page was planned anew: 11 ms of
 * planning for 0.55 ms of execution (bench/log/2026-11-28-50m-third-run.md).
 * Only these statements: the app's other named statements were never checked under a forced
 * generic plan.
 */
export function genericPlansOf(db: Db): Db {
  return genericTwins.get(db) ?? db;
}

async function open(): Promise<Handle> {
  const url = config.databaseUrl;
  if (url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    // Behind a transaction pooler (PgBouncer pool_mode=transaction, implied by DATABASE_DIRECT_URL)
    // consecutive statements may run on different server connections, so a statement prepared on
    // one is unknown on the next: every query goes unnamed (Parse/Bind/Execute in one round trip
    // group), which PgBouncer 1.18 passes through. The replica is read the same way unless
    // DATABASE_READ_POOLED=0 says it is connected directly.
    const pooled = config.databaseBehindPooler;
    const connect = (target: string, max: number, pooled: boolean, startup?: Record<string, string>) =>
      postgres(target, {
        max,
        // A database that cannot be reached answers 503 within this (lib/http), not after the
        // driver's default 30 s: requests waiting for a connection during an outage come back soon.
        connect_timeout: 10,
        onnotice: () => {},
        prepare: !pooled,
        ...(startup ? { connection: startup } : {}),
      });
    const clients: Sql[] = [];
    // The primary's circuit (db/circuit.ts); its probe has a connection of its own, with a short
    // connect timeout, so a probe of a server that does not answer ends soon.
    const probeClient = postgres(url, { max: 1, connect_timeout: 2, idle_timeout: 1, onnotice: () => {} });
    const circuit = new DbCircuit(() => probeClient.unsafe("SELECT 1"));
    // A handle sending named statements (the pool itself, or its generic-plan twin for the history).
    const named = (target: string, max: number, startup?: Record<string, string>) => {
      const c = connect(target, max, false, startup);
      namedStatements(c);
      if (target === url) guardWithCircuit(c, circuit);
      clients.push(c);
      const d = drizzle(c, { schema }) as unknown as Db;
      namedOn.set(d, true);
      return d;
    };
    const client = connect(url, config.databasePoolSize, pooled);
    if (pooled) circuit.onOpen(oneQueryPerConnection(client, config.databasePoolSize).failWaiting);
    else namedStatements(client);
    // After the gate: an open circuit fails a query before it waits there for a connection.
    guardWithCircuit(client, circuit);
    const db = drizzle(client, { schema }) as unknown as Db;
    namedOn.set(db, !pooled);
    if (!pooled) genericTwins.set(db, named(url, historyPoolSize(), FORCE_GENERIC));
    // postgres.js holds one dedicated connection for all of this process's LISTENs and
    // re-listens after a reconnect, calling onListen each time. LISTEN needs a session of its
    // own, which a transaction pooler does not keep: it goes to DATABASE_DIRECT_URL when set.
    const direct = config.databaseDirectUrl;
    const listener = direct ? postgres(direct, { max: 1, connect_timeout: 10, onnotice: () => {} }) : client;
    const listen: Listen = async (channel, onNotify, onListen) => {
      const { unlisten } = await listener.listen(channel, onNotify, onListen);
      return unlisten;
    };
    const readUrl = config.databaseReadUrl;
    let replica: Handle["replica"];
    const readPooled = config.databaseReadPooled;
    const readClient = readUrl ? connect(readUrl, config.databasePoolSize, readPooled) : undefined;
    if (readClient) {
      if (readPooled) oneQueryPerConnection(readClient, config.databasePoolSize);
      else namedStatements(readClient);
      const monitor = new ReplicaMonitor(readClient, client, () => config.readReplicaMaxLagS);
      monitor.start();
      replica = { db: drizzle(readClient, { schema }) as unknown as Db, monitor };
      namedOn.set(replica.db, !readPooled);
      if (!readPooled) genericTwins.set(replica.db, named(readUrl!, historyPoolSize(), FORCE_GENERIC));
    }
    const close = async () => {
      replica?.monitor.stop();
      await Promise.all([
        client.end({ timeout: 5 }),
        listener === client ? undefined : listener.end({ timeout: 5 }),
        readClient?.end({ timeout: 5 }),
        probeClient.end({ timeout: 1 }),
        ...clients.map((c) => c.end({ timeout: 5 })),
      ]);
    };
    return { db, kind: "postgres", listen, replica, close };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dir = config.pgliteDir;
  const release = dir.startsWith("memory://") ? () => {} : lockDataDir(dir);
  // An in-memory database may start from a migrated template (the test suite's: migrating each
  // test file's database from scratch cost it seconds per file).
  const template = dir.startsWith("memory://") ? config.pgliteTemplate : undefined;
  const client = template ? new PGlite(dir, { loadDataDir: new Blob([await fs.promises.readFile(template)]) }) : new PGlite(dir);
  await client.waitReady;
  const db = drizzle(client, { schema }) as unknown as Db;
  // PGlite is one session in this process: NOTIFY from any of its transactions reaches it here.
  const listen: Listen = async (channel, onNotify, onListen) => {
    const unlisten = await client.listen(channel, onNotify);
    onListen?.();
    return () => unlisten();
  };
  return {
    db,
    kind: "pglite",
    listen,
    close: async () => {
      await client.close();
      release();
    },
  };
}

/**
 * drizzle runs every query not built with `.prepare()` as an unnamed statement, which postgres.js
 * sends as Parse/Describe first and Bind/Execute second: two round trips and a fresh plan each
 * time. Our SQL strings are a fixed set (values are always parameters), so named statements,
 * cached per connection, are safe and cut a round trip off every query (bench/log/2026-11-22-findings.md,
 * finding 1). Only on a direct connection: a transaction pooler cannot keep them (see `open`).
 */
function namedStatements(client: Sql) {
  const unsafe = client.unsafe.bind(client);
  client.unsafe = ((query: string, params?: unknown[], opts?: { prepare?: boolean }) =>
    unsafe(query, params as never, { ...opts, prepare: true })) as typeof client.unsafe;
}

/**
 * Two processes on one PGlite folder silently lose writes, so the folder is held with a lock
 * file naming the owner's pid. A stale lock (owner gone) is taken over.
 */
export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(path.dirname(dir), { recursive: true });
  const lock = `${dir}.lock`;
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      fs.writeFileSync(lock, String(process.pid), { flag: "wx" });
      const release = () => {
        try {
          if (fs.readFileSync(lock, "utf8") === String(process.pid)) fs.unlinkSync(lock);
        } catch {}
      };
      process.once("exit", release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
      const owner = Number(fs.readFileSync(lock, "utf8"));
      if (owner && owner !== process.pid && isAlive(owner)) {
        throw new DataDirBusyError(dir, owner);
      }
      fs.rmSync(lock, { force: true });
    }
  }
  throw new Error(`No se pudo bloquear la carpeta de datos ${dir}`);
}

export class DataDirBusyError extends Error {
  constructor(dir: string, pid: number) {
    super(
      `La base de datos embebida (${dir}) está en uso por el proceso ${pid}, probablemente el servidor. ` +
        `Deténgalo antes de usar este comando, o use un Postgres real con DATABASE_URL.`,
    );
    this.name = "DataDirBusyError";
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Rows of a raw `db.execute` result: postgres.js returns an array, PGlite `{rows}`. */
export function rowsOf<T>(result: unknown): T[] {
  if (Array.isArray(result)) return result as T[];
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}
