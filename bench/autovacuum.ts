import type { ScenarioCtx } from "./scenarios";

/**
 * What autovacuum would have done by now, on a server that runs without it. This machine's
 * PostgreSQL runs with `autovacuum = off`, so the dead row versions a production server clears
 * within its naptime (a minute) pile up under the write scenarios: after the template sends,
 * `conversations` held 532,133 dead versions beside 5,000 live rows, and the bulk send that
 * followed read 4,096 msgs/s against 15,369 on the same set without them (bench/log,
 * 2026-12-07-bulk-and-autovacuum.md). Between scenarios the bench vacuums every table past
 * autovacuum's own threshold (50 rows + 20 % of the live ones, its defaults) and says which. A
 * server with autovacuum on is left to it.
 */
export async function vacuumAsAutovacuumWould(ctx: ScenarioCtx): Promise<void> {
  if (!ctx.query) return;
  const [setting] = await ctx.query("SHOW autovacuum");
  if (setting?.autovacuum !== "off") return;
  const due = await ctx.query(
    `SELECT relname, n_dead_tup::bigint AS dead FROM pg_stat_user_tables
     WHERE n_dead_tup > 50 + 0.2 * n_live_tup ORDER BY n_dead_tup DESC`,
  );
  if (!due.length) return;
  const started = Date.now();
  for (const t of due) await ctx.query(`VACUUM (ANALYZE) "${String(t.relname).replace(/"/g, '""')}"`);
  const list = due.map((t) => `${t.relname} (${Number(t.dead).toLocaleString("en-US")} dead)`).join(", ");
  console.log(`  (autovacuum is off on this server: vacuumed ${list} in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
