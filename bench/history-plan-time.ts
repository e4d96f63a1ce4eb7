/**
 * Planning and execution time of the history page over the partitions of messages, with and
 * without its window's id range (lib/messages/history-bounds.ts), sent two ways: unnamed, as
 * through PgBouncer in transaction pooling (every execution planned with its values), and as a
 * named statement under a generic plan (planned once per connection, pruned when it starts).
 *
 *   DATABASE_URL=… npx tsx --conditions=react-server bench/history-plan-time.ts [runs]
 *
 * Runs against a database that holds the bench's data set (`npm run bench -- --keep`, then the
 * database it printed): team A's heavy customer and some ordinary ones, the bench's 30-day window.
 */
import postgres from "postgres";
import { Placeholder } from "drizzle-orm";
import { drizzle } from "drizzle-orm/postgres-js";
import type { Db } from "@/db/client";
import { ALL_IDS, idRangeFor, type IdRange } from "@/lib/messages/history-bounds";
import { pageStatement } from "@/lib/messages/history-repo";
import { resolveWindow } from "@/lib/messages/history-range";
import { parseLocalDate } from "@/lib/messages/history-schemas";

const url = process.env.DATABASE_URL!;
const runs = Number(process.argv[2] ?? 200);
const sql = postgres(url, { max: 1, onnotice: () => {} });
const builder = drizzle(postgres(url, { max: 1 })) as unknown as Db;
const pruneAt = (process.env.PRUNE_AT ?? "plan") as "plan" | "start";
const { sql: text, params } = pageStatement(builder, { order: "DESC", bounded: true, pruneAt }).toSQL();

const day = (d: Date) => d.toISOString().slice(0, 10);
const now = new Date();
const window = resolveWindow(parseLocalDate(day(new Date(now.getTime() - 29 * 86_400_000)))!, parseLocalDate(day(now))!);
const tz = process.env.APP_TIMEZONE || "UTC";

type Conv = { team_id: number; wa_number_id: number; contact_id: number };
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const partitions = (await sql`SELECT count(*)::int AS n FROM pg_inherits WHERE inhparent = 'messages'::regclass`)[0].n;
  const bounds = (await sql`SELECT lo, hi, min_created_at, max_created_at FROM message_partition_bounds`).map((r) => ({
    lo: Number(r.lo),
    hi: Number(r.hi),
    minCreatedAt: r.min_created_at as Date | null,
    maxCreatedAt: r.max_created_at as Date | null,
  }));
  const pruned = idRangeFor(bounds, window);
  // Ordinary customers (a few messages each) and the heavy one, as the bench picks them.
  const convs = await sql<Conv[]>`SELECT team_id, wa_number_id, contact_id FROM conversations
    WHERE team_id = (SELECT min(id) FROM teams) ORDER BY random() LIMIT 50`;
  const values = (c: Conv, ids: IdRange): unknown[] => {
    const v: Record<string, unknown> = {
      teamId: c.team_id,
      waNumberId: c.wa_number_id,
      contactId: c.contact_id,
      from: window.from,
      to: window.toExclusive,
      tz,
      lo: ids.lo,
      hi: ids.hi,
      limit: 50,
      offset: 0,
    };
    return params.map((p) => (p instanceof Placeholder ? v[p.name] : p));
  };
  console.log(
    `bounds pruning at ${pruneAt}; ${partitions} partitions; window ${window.from} … ${window.toExclusive}; its ids ${pruned.lo}…${pruned.hi}`,
  );
  for (const [label, ids] of [
    ["every id", ALL_IDS],
    ["window's ids", pruned],
  ] as const) {
    // Unnamed: planned at every execution with its values (PgBouncer's transaction pooling).
    const plan: number[] = [];
    const exec: number[] = [];
    for (let i = 0; i < runs; i++) {
      const c = convs[i % convs.length];
      const [row] = await sql.unsafe(`EXPLAIN (ANALYZE, FORMAT JSON) ${text}`, values(c, ids) as never[], { prepare: false });
      const out = (row["QUERY PLAN"] as { "Planning Time": number; "Execution Time": number }[])[0];
      plan.push(out["Planning Time"]);
      exec.push(out["Execution Time"]);
    }
    console.log(`unnamed, ${label}: planning ${median(plan).toFixed(3)} ms, execution ${median(exec).toFixed(3)} ms (medians of ${runs})`);
    // Named, generic plan: planned once; what each execution costs, timed from here (round trip included).
    await sql.unsafe("SET plan_cache_mode = force_generic_plan");
    const wall: number[] = [];
    for (let i = 0; i < runs; i++) {
      const c = convs[i % convs.length];
      const t0 = performance.now();
      await sql.unsafe(text, values(c, ids) as never[], { prepare: true });
      wall.push(performance.now() - t0);
    }
    await sql.unsafe("RESET plan_cache_mode");
    console.log(`named, generic plan, ${label}: ${median(wall).toFixed(3)} ms a page, round trip included (median of ${runs})`);
    // Named, as PostgreSQL chooses (plan_cache_mode auto): which plans it took, and at what price.
    await sql.unsafe("DISCARD ALL");
    const auto: number[] = [];
    for (let i = 0; i < runs; i++) {
      const c = convs[i % convs.length];
      const t0 = performance.now();
      await sql.unsafe(text, values(c, ids) as never[], { prepare: true });
      auto.push(performance.now() - t0);
    }
    const [chosen] = await sql`SELECT sum(generic_plans)::int AS generic, sum(custom_plans)::int AS custom FROM pg_prepared_statements`;
    console.log(
      `named, as chosen, ${label}: ${median(auto).toFixed(3)} ms a page, round trip included; ${chosen.generic} generic and ${chosen.custom} custom plans`,
    );
  }
  await sql.end();
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
