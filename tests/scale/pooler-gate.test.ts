import postgres from "postgres";
import { afterEach, describe, expect, it } from "vitest";
import { oneQueryPerConnection } from "@/db/pooler-gate";
import { connectionLost } from "@/db/errors";

/**
 * db/pooler-gate.ts on a bare postgres.js client through PgBouncer 1.18 in transaction pooling
 * (DATABASE_URL in the scale pass, scripts/test-scale.sh). Without the gate, more concurrent
 * queries than connections are pipelined, PgBouncer drops the pipelined answers ("idle server got
 * dirty") and those queries never settle: the first test then ends by vitest's timeout.
 */
const url = process.env.DATABASE_URL ?? "";
const clients: postgres.Sql[] = [];
function gated(max: number, waitMs?: number) {
  const sql = postgres(url, { max, prepare: false, onnotice: () => {} });
  oneQueryPerConnection(sql, max, waitMs);
  clients.push(sql);
  return sql;
}
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.end({ timeout: 1 })));
});

describe("one query per connection behind the pooler", { timeout: 30_000 }, () => {
  it("the scale pass runs this through PgBouncer", () => {
    expect(process.env.DATABASE_DIRECT_URL, "scripts/test-scale.sh sets DATABASE_DIRECT_URL").toBeTruthy();
    expect(url).not.toBe(process.env.DATABASE_DIRECT_URL);
  });

  it("answers 20 rounds of 200 concurrent queries on 3 connections, each its own answer", async () => {
    const sql = gated(3);
    const n = 200;
    // A query without parameters leaves its connection open to a pipelined next one (postgres.js
    // sends a parameterized query unnamed as Parse/Describe/Flush first, which it never pipelines
    // behind): alternating the two is what made PgBouncer drop answers.
    const ask = (i: number) => (i % 2 ? sql.unsafe("SELECT $1::int AS n", [i]) : sql.unsafe(`SELECT ${i}::int AS n`));
    for (let round = 0; round < 20; round++) {
      const answers = await Promise.all(Array.from({ length: n }, (_, i) => ask(i)));
      expect(answers.map((rows) => Number(rows[0].n))).toEqual(Array.from({ length: n }, (_, i) => i));
    }
  });

  it("transactions keep their connection among concurrent plain queries", async () => {
    const sql = gated(3);
    const tx = Array.from({ length: 6 }, (_, i) =>
      sql.begin(async (t) => {
        await t.unsafe("SELECT set_config('wa.test', $1, true)", [String(i)]);
        await t.unsafe("SELECT pg_sleep(0.01)");
        const [row] = await t.unsafe("SELECT current_setting('wa.test') AS v");
        return row.v;
      }),
    );
    const plain = Array.from({ length: 30 }, (_, i) => sql.unsafe("SELECT $1::int AS n", [i]));
    expect(await Promise.all(tx)).toEqual(["0", "1", "2", "3", "4", "5"]);
    expect((await Promise.all(plain)).map((rows) => Number(rows[0].n))).toEqual(Array.from({ length: 30 }, (_, i) => i));
  });

  it("a query that finds no connection free in time fails as 'database busy' (503), and the permit comes back", async () => {
    const sql = gated(1, 200);
    // The one connection is held by a transaction that (wrongly) waits on a query of the pool.
    const outcome = await sql
      .begin(async () => {
        await sql.unsafe("SELECT 1");
      })
      .then(
        () => "committed",
        (err: unknown) => err,
      );
    expect(outcome).toMatchObject({ code: "POOL_QUEUE_TIMEOUT" });
    expect(connectionLost(outcome)).toBe(true);
    const [row] = await sql.unsafe("SELECT 2 AS n");
    expect(Number(row.n)).toBe(2);
  });
});
