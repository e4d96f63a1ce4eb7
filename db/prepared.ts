import "server-only";
import { sql, type Placeholder, type SQL } from "drizzle-orm";
import { PgDialect } from "drizzle-orm/pg-core";
import type { Db, DbOrTx } from "./client";

/**
 * A hot query built once per database handle with drizzle's `.prepare()`, then only executed.
 * Building a select (entity checks, selection, SQL text) is about a quarter of a small request's
 * CPU (bench/log/2026-11-22-findings.md, finding 1); values arrive through `sql.placeholder`. Keyed by handle
 * because tests open a second one on the same database.
 */
export function preparedOnce<Q>(build: (db: Db) => Q): (db: Db) => Q {
  const cache = new WeakMap<Db, Q>();
  return (db) => {
    let q = cache.get(db);
    if (!q) cache.set(db, (q = build(db)));
    return q;
  };
}

/** A value, or the placeholder that stands for it in a prepared statement. */
export type Param<T> = T | Placeholder;

/** `sql.placeholder` typed as the value it stands for, for builders that take either. */
export const placeholder = <T>(name: string): Param<T> => sql.placeholder(name);

const dialect = new PgDialect();

/**
 * A hand-written statement (CTEs, INSERT … SELECT: what the query builder does not build) whose
 * values are all `sql.placeholder`s: its SQL text is built once, here, and each call only fills
 * the parameters. `db.execute(sql…)` instead walks the whole template into text on every call,
 * about a tenth of a template send's CPU (bench/log/2026-12-07-bulk-and-autovacuum.md). The
 * handle's session runs it as any of its queries (its logger sees it; named statements where
 * the handle uses them, db/client.ts).
 */
export function preparedSql(statement: SQL) {
  const query = dialect.sqlToQuery(statement);
  return (db: DbOrTx, values: Record<string, unknown>): Promise<unknown> =>
    db._.session.prepareQuery(query, undefined, undefined, false).execute(values);
}
