import type { Sql } from "postgres";
import { connectFailed } from "./errors";

/**
 * A circuit breaker in front of the database: once a connection cannot be made (refused, timed
 * out, the server crashed or starting up), every query fails at once with DB_CIRCUIT_OPEN, which the API
 * answers 503 with Retry-After (lib/http/respond.ts, db/errors.ts connectionLost), instead of
 * each request waiting its own connect timeout (10 s) and then the pooler gate's queue (10 s):
 * during an outage answers took 10–28 s each. In the background a probe of its own asks the
 * database every PROBE_EVERY_MS (`SELECT 1`, a short connect timeout); the first answer closes
 * the circuit and queries go through again (postgres.js reconnects on the next one).
 *
 * Only a failure to connect opens it: a query's own error, or a connection cut mid-query (a
 * backend terminated by an administrator), says nothing about the next connection.
 */
const PROBE_EVERY_MS = 1000;

export class DbCircuit {
  private openedAt: number | null = null;
  private readonly listeners = new Set<(err: Error) => void>();

  constructor(
    private readonly probe: () => Promise<unknown>,
    private readonly probeEveryMs = PROBE_EVERY_MS,
  ) {}

  get isOpen(): boolean {
    return this.openedAt !== null;
  }

  /** The error every query gets while the circuit is open. */
  openError(): Error {
    return Object.assign(new Error("database unreachable: circuit open until a probe answers"), { code: "DB_CIRCUIT_OPEN" });
  }

  /** Called when the circuit opens, with the error queries get (db/pooler-gate.ts fails its waiters with it). */
  onOpen(listener: (err: Error) => void) {
    this.listeners.add(listener);
  }

  /** Notes a query's failure: a failed connect opens the circuit. */
  noteFailure(err: unknown) {
    if (this.openedAt !== null || !connectFailed(err)) return;
    this.openedAt = Date.now();
    console.error(`[db] connecting to the database failed (${codeOf(err)}): answering 503 until it answers again`);
    const open = this.openError();
    for (const listener of this.listeners) listener(open);
    void this.probeUntilClosed();
  }

  private async probeUntilClosed() {
    for (;;) {
      await new Promise((resolve) => setTimeout(resolve, this.probeEveryMs).unref());
      try {
        await this.probe();
        console.error(`[db] the database answers again after ${((Date.now() - this.openedAt!) / 1000).toFixed(1)} s`);
        this.openedAt = null;
        return;
      } catch {
        // Still away: probe again.
      }
    }
  }
}

function codeOf(err: unknown): string {
  for (let e = err as { code?: unknown; cause?: unknown; errors?: unknown[] } | undefined, depth = 0; e && depth < 5; depth++) {
    if (typeof e.code === "string") return e.code;
    e = (e.cause ?? (Array.isArray(e.errors) ? e.errors[0] : undefined)) as typeof e;
  }
  return "error";
}

/**
 * Puts `circuit` in front of `client`: while it is open, queries and transactions fail at once;
 * every failure is shown to it. Wraps the two ways drizzle reaches the pool (`unsafe`, `begin`),
 * as db/pooler-gate.ts does, and is applied after the gate so an open circuit fails a query
 * before it waits there for a connection.
 */
export function guardWithCircuit(client: Sql, circuit: DbCircuit) {
  type Pending = { handler: (q: unknown) => void; reject: (e: unknown) => void };
  const unsafe = client.unsafe.bind(client);
  client.unsafe = ((query: string, params?: unknown[], opts?: unknown) => {
    const q = unsafe(query, params as never, opts as never) as unknown as Pending;
    const { handler, reject } = q;
    q.reject = (e) => {
      circuit.noteFailure(e);
      reject(e);
    };
    q.handler = (self) => (circuit.isOpen ? reject(circuit.openError()) : handler(self));
    return q;
  }) as unknown as typeof client.unsafe;

  const begin = client.begin.bind(client) as (...args: unknown[]) => Promise<unknown>;
  client.begin = (async (...args: unknown[]) => {
    if (circuit.isOpen) throw circuit.openError();
    try {
      return await begin(...args);
    } catch (err) {
      circuit.noteFailure(err);
      throw err;
    }
  }) as typeof client.begin;
}
