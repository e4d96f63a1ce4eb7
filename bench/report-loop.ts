/**
 * A report's price outside Next (bench/log/2026-11-26-report-and-list-time.md, "service functions called in a loop"): calls
 * reportSummary and reportAgents for a bench team's last 30 days (the bench's own requests) in a
 * loop, and prints per call the CPU of this process (our code, drizzle, postgres.js; no HTTP) and
 * of the database's backends (read from /proc: run it on the database's machine, with nothing else
 * using that database).
 *
 *   DATABASE_URL=postgres://… npx tsx --conditions=react-server bench/report-loop.ts [calls] [warm-up]
 */
import { sql } from "drizzle-orm";
import { getDb, rowsOf } from "@/db/client";
import { reportAgents, reportSummary } from "@/lib/reports/service";
import type { AuthContext } from "@/lib/auth/context";
import { processCpuMs } from "./processes";

const calls = Number(process.argv[2] ?? 400);
const warmUp = Number(process.argv[3] ?? 30);

/** utime + stime of the database's client backends, in ms. */
async function backendsCpuMs(): Promise<number> {
  const db = await getDb();
  const pids = rowsOf<{ pid: number }>(
    await db.execute(sql`SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND backend_type = 'client backend'`),
  );
  return pids.reduce((ms, { pid }) => ms + processCpuMs(pid), 0);
}

async function main() {
  const db = await getDb();
  const [team] = rowsOf<{ id: number }>(await db.execute(sql`SELECT id FROM teams WHERE name LIKE 'Bench A %' ORDER BY id DESC LIMIT 1`));
  if (!team) throw new Error("no bench team A in this database");
  const ctx: AuthContext = { teamId: Number(team.id), actor: { kind: "token", tokenId: 0 } };
  const reports = { summary: reportSummary, agents: reportAgents };
  for (const [name, fn] of Object.entries(reports)) {
    for (let i = 0; i < warmUp; i++) await fn({ ctx, input: { wa_number: undefined } });
    const pg0 = await backendsCpuMs();
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < calls; i++) await fn({ ctx, input: { wa_number: undefined } });
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    const pg = (await backendsCpuMs()) - pg0;
    const own = (cpu.user + cpu.system) / 1000 / calls;
    console.log(
      `${name}: ${calls} calls, this process ${own.toFixed(2)} ms + Postgres ${(pg / calls).toFixed(2)} ms CPU a call` +
        ` = ${(own + pg / calls).toFixed(2)}; wall ${(wall / calls).toFixed(2)} ms a call`,
    );
  }
  process.exit(0);
}

void main();
