import type { Sql } from "postgres";

/**
 * One query at a time per connection, for a client behind a transaction pooler.
 *
 * postgres.js pipelines: once all `max` connections are busy, the next query is written to a busy
 * connection before the previous one's answer has come back (behind a query without parameters;
 * a parameterized one goes unnamed as Parse/Describe/Flush first and is never pipelined behind).
 * PgBouncer 1.18 (Debian 12's) hands the server connection back to its pool at the first
 * ReadyForQuery, so the answer to the pipelined query arrives "when not linked", PgBouncer drops it
 * ("idle server got dirty") and the query waits forever: the scale pass's 64 concurrent
 * conversation lists and its sign-in flood hung on exactly this (tests/scale/pooler-gate.test.ts
 * reproduces it every run without the gate).
 * postgres.js's `max_pipeline: 0` would stop it but also stops `begin` from reserving its
 * connection (UNSAFE_TRANSACTION), so instead at most `max` queries or transactions are let into
 * the driver at once: each then finds a connection of its own, and the rest wait here in order.
 *
 * It wraps the two ways drizzle reaches the pool: `unsafe` (every query) and `begin` (every
 * transaction, whose statements then run on its reserved connection). The query object's
 * `handler`, `resolve` and `reject` are postgres.js 3.4's own (src/query.js); a test in the scale
 * pass (tests/scale/pooler-load.test.ts) hangs and times out if an upgrade changes them.
 */
/** How long a query may wait here for a connection before it fails as "database busy" (503). */
const WAIT_MS = 10_000;

export function oneQueryPerConnection(client: Sql, max: number, waitMs = WAIT_MS): { failWaiting: (err: Error) => void } {
  let free = max;
  const waiting: (() => void)[] = [];
  // How each waiter is failed before its time (failWaiting), by its `take`.
  const fails = new Map<() => void, (err: Error) => void>();
  // Resolves once a permit is held; rejects after `waitMs` (a transaction that queries the pool
  // instead of its own connection could otherwise wait here forever once all permits are held by
  // such transactions), with a code connectionLost (db/errors.ts) answers 503 for.
  const acquire = (): Promise<void> | void => {
    if (free > 0) {
      free--;
      return;
    }
    return new Promise<void>((resolve, reject) => {
      const take = () => {
        clearTimeout(timer);
        fails.delete(take);
        resolve();
      };
      const fail = (err: Error) => {
        clearTimeout(timer);
        fails.delete(take);
        waiting.splice(waiting.indexOf(take), 1);
        reject(err);
      };
      const timer = setTimeout(
        () => fail(Object.assign(new Error(`no database connection free within ${waitMs} ms`), { code: "POOL_QUEUE_TIMEOUT" })),
        waitMs,
      );
      waiting.push(take);
      fails.set(take, fail);
    });
  };
  // A released permit passes straight to the next waiter, so none is lost or counted twice.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free++;
  };

  type Pending = { handler: (q: unknown) => void; resolve: (x: unknown) => void; reject: (e: unknown) => void };
  const unsafe = client.unsafe.bind(client);
  client.unsafe = ((query: string, params?: unknown[], opts?: { onexecute?: unknown }) => {
    const q = unsafe(query, params as never, opts as never) as unknown as Pending;
    // `begin`'s own BEGIN carries `onexecute` (it reserves the connection): it runs under the
    // permit its transaction already holds.
    if (opts?.onexecute) return q;
    const { handler, resolve, reject } = q;
    let held = false;
    const done = () => {
      if (held) release();
      held = false;
    };
    q.resolve = (x) => (done(), resolve(x));
    q.reject = (e) => (done(), reject(e));
    q.handler = (self) => {
      const go = () => {
        held = true;
        handler(self);
      };
      const wait = acquire();
      if (wait) wait.then(go, reject);
      else go();
    };
    return q;
  }) as unknown as typeof client.unsafe;

  const begin = client.begin.bind(client) as (...args: unknown[]) => Promise<unknown>;
  client.begin = (async (...args: unknown[]) => {
    await acquire();
    try {
      return await begin(...args);
    } finally {
      release();
    }
  }) as typeof client.begin;

  // The database is away (db/circuit.ts): nobody waits here for a connection that will not come.
  return { failWaiting: (err) => [...fails.values()].forEach((fail) => fail(err)) };
}
