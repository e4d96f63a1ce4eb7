import postgres from "postgres";

/**
 * The server the throwaway database is made on: the machine's PostgreSQL, or BENCH_SERVER_URL (a
 * cluster of the bench's own, say). A 50 M build runs statements for minutes, and the event tail
 * of every database on the same instance reads only below its oldest running transaction, so on
 * the machine's instance it stalls the suite's tests/events files (bench/log/2026-11-28-50m-fifth-run.md); on a cluster of its own it shares only the cores.
 */
export const LOCAL_SERVER = (process.env.BENCH_SERVER_URL || "postgres://postgres@127.0.0.1:5432").replace(/\/+$/, "");

export type BenchDatabase = { url: string; owned: boolean; drop: () => Promise<void> };

/**
 * The database the bench runs on: DATABASE_URL when given (left in place afterwards), else a
 * throwaway one on the local server that is dropped at the end.
 */
export async function openBenchDatabase(): Promise<BenchDatabase> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, owned: false, drop: async () => {} };
  const name = `wa_bench_${Date.now().toString(36)}_${process.pid}`;
  const admin = postgres(`${LOCAL_SERVER}/postgres`, { max: 1, onnotice: () => {} });
  try {
    await admin.unsafe(`create database ${name}`);
  } finally {
    await admin.end({ timeout: 5 });
  }
  return {
    url: `${LOCAL_SERVER}/${name}`,
    owned: true,
    drop: async () => {
      const sql = postgres(`${LOCAL_SERVER}/postgres`, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`drop database if exists ${name} with (force)`);
      } finally {
        await sql.end({ timeout: 5 });
      }
    },
  };
}
