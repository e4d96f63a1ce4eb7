import "server-only";
import { sql, type Placeholder } from "drizzle-orm";
import type { Db } from "./client";

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
