import type { Sql } from "postgres";

/**
 * One query at a time per connection, for a client behind a transaction pooler.
 *
 * postgres.js pipelines: once all `max` connections are busy, the next query is written to a busy
 * connection before the previous one's answer has come back. PgBouncer 1.18 (Debian 12's) hands
 * the server connection back to its pool at the first ReadyForQuery, so the answer to the
 * pipelined query arrives "when not linked", PgBouncer drops it ("idle server got dirty") and the
 * query waits forever: the scale pass's 64 concurrent conversation lists hung on exactly this.
 * postgres.js's `max_pipeline: 0` would stop it but also stops `begin` from reserving its
 * connection (UNSAFE_TRANSACTION), so instead at most `max` queries or transactions are let into
 * the driver at once: each then finds a connection of its own, and the rest wait here in order.
 *
 * It wraps the two ways drizzle reaches the pool: `unsafe` (every query) and `begin` (every
 * transaction, whose statements then run on its reserved connection). The query object's
 * `handler`, `resolve` and `reject` are postgres.js 3.4's own (src/query.js); a test in the scale
 * pass (tests/scale/pooler-load.test.ts) hangs and times out if an upgrade changes them.
 */
export function oneQueryPerConnection(client: Sql, max: number) {
  let free = max;
  const waiting: (() => void)[] = [];
  const acquire = (): Promise<void> | void => {
    if (free > 0) {
      free--;
      return;
    }
    return new Promise<void>((resolve) => waiting.push(resolve));
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
      if (wait) void wait.then(go);
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
}
