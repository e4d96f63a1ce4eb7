import "server-only";
import fs from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import * as schema from "./schema";
import { config } from "@/lib/config";

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * Subscribes to a NOTIFY channel. `onListen` runs each time the subscription is (re)established:
 * notifications sent while a connection was down are lost, so the caller catches up there.
 */
export type Listen = (channel: string, onNotify: (payload: string) => void, onListen?: () => void) => Promise<() => Promise<void>>;

type Handle = { db: Db; kind: "postgres" | "pglite"; listen: Listen; close: () => Promise<void> };

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

export async function getDb(): Promise<Db> {
  return (await getHandle()).db;
}

/**
 * Runs `fn` in one transaction of this process's database: the one way a transaction is opened
 * (a repo function takes the `tx` as its `db`).
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

async function open(): Promise<Handle> {
  const url = config.databaseUrl;
  if (url) {
    const { default: postgres } = await import("postgres");
    const { drizzle } = await import("drizzle-orm/postgres-js");
    const client = postgres(url, {
      max: config.databasePoolSize,
      // A database that cannot be reached answers 503 within this (lib/http), not after the
      // driver's default 30 s: requests waiting for a connection during an outage come back soon.
      connect_timeout: 10,
      onnotice: () => {},
      // Keep jsonb and numeric types as drizzle expects them.
    });
    // drizzle runs every query not built with `.prepare()` as an unnamed statement, which
    // postgres.js sends as Parse/Describe first and Bind/Execute second: two round trips and a
    // fresh plan each time. Our SQL strings are a fixed set (values are always parameters), so
    // named statements, cached per connection, are safe and cut a round trip off every query
    // (bench/README.md, finding 1).
    const unsafe = client.unsafe.bind(client);
    client.unsafe = ((query: string, params?: unknown[], opts?: { prepare?: boolean }) =>
      unsafe(query, params as never, { ...opts, prepare: true })) as typeof client.unsafe;
    const db = drizzle(client, { schema }) as unknown as Db;
    // postgres.js holds one dedicated connection for all of this process's LISTENs and
    // re-listens after a reconnect, calling onListen each time.
    const listen: Listen = async (channel, onNotify, onListen) => {
      const { unlisten } = await client.listen(channel, onNotify, onListen);
      return unlisten;
    };
    return { db, kind: "postgres", listen, close: () => client.end({ timeout: 5 }) };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const dir = config.pgliteDir;
  const release = dir.startsWith("memory://") ? () => {} : lockDataDir(dir);
  const client = new PGlite(dir);
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
